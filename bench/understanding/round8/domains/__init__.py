"""Round 8's three bench domains: real_estate, bank_cards and laundry (see ../README.md)."""
