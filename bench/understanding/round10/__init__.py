"""Round 10 of the held-out understanding eval: insurance, school and EV charging (see README.md)."""
