"""Round 11's three bench domains: coworking, beauty_salon and transit_card (see ../README.md)."""
