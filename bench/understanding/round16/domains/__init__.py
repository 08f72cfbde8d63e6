"""Round 16's three bench domains: music_school, bakery and campsite (see ../README.md)."""
