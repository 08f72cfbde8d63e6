"""Held-out understanding evaluation, written from the public docs only (see README.md)."""
