"""Round 19's three bench domains: ski_resort, karaoke and waste_pickup (see ../README.md)."""
