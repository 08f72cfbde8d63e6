"""Turns: one conversation turn run end to end, its live events, background runs and requests
already understood."""
