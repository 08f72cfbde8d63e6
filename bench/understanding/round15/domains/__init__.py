"""Round 15's three bench domains: driving_school, tailor and boat_tours (see ../README.md)."""
