"""Round 6 of the held-out understanding eval: time_off, rides and groceries (see README.md)."""
