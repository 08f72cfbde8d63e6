"""Round 14's three bench domains: catering, photo_studio and self_storage (see ../README.md)."""
