"""Round 12 of the held-out understanding eval: car wash, gas delivery and moving (see README.md)."""
