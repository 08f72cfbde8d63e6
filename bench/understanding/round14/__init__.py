"""Round 14 of the held-out understanding eval: catering, photo studio and self-storage (see README.md)."""
