"""Round 15 of the held-out understanding eval: driving school, tailor and boat tours (see README.md)."""
