"""Round 18's three bench domains: escape_room, translation and blood_donation (see ../README.md)."""
