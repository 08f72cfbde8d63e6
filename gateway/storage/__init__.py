"""Storage: the gateway's tables, runs and sessions, API keys, runtime registrations and the migrations."""
