"""Round 11 of the held-out understanding eval: coworking, beauty salon and transit card (see README.md)."""
