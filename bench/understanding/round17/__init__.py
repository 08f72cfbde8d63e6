"""Round 17 of the held-out understanding eval: tattoo studio, locksmith and museum visits (see README.md)."""
