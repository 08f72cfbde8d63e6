"""Round 19 of the held-out understanding eval: ski resort, karaoke rooms and a city's bulky
waste pickup (see README.md)."""
