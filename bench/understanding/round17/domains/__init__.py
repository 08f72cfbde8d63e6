"""Round 17's three bench domains: tattoo_studio, locksmith and museum (see ../README.md)."""
