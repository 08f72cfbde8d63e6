"""Round 7 of the held-out understanding eval: tickets, repairs and courses (see README.md)."""
