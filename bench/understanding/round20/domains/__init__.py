"""Round 20's three bench domains: bowling, passport_office and water_delivery (see ../README.md)."""
