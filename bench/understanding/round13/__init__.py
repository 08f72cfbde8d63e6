"""Round 13 of the held-out understanding eval: bike rental, florist and print shop (see README.md)."""
