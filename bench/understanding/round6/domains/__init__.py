"""Round 6's three bench domains: time_off, rides and groceries (see ../README.md)."""
