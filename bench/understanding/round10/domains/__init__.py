"""Round 10's three bench domains: insurance, school and ev_charging (see ../README.md)."""
