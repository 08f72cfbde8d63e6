"""Round 8 of the held-out understanding eval: real estate, bank cards and laundry (see README.md)."""
