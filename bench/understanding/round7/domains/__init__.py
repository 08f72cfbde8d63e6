"""Round 7's three bench domains: tickets, repairs and courses (see ../README.md)."""
