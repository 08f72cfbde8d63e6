"""Round 16 of the held-out understanding eval: music school, bakery and campsite (see README.md)."""
