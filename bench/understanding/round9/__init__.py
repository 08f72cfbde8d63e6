"""Round 9 of the held-out understanding eval: phone plan, parking and utilities (see README.md)."""
