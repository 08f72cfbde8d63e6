"""Administration: bearer-key authentication, the admin role, API keys and the domain registry routes."""
