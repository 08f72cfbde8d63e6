"""The run inspector: its static page at ``/ui`` and the read-only JSON it needs beyond the API."""
