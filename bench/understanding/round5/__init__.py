"""Round 5 of the held-out understanding eval: hotel, parcels and pet_care (see README.md)."""
