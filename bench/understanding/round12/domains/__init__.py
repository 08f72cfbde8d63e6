"""Round 12's three bench domains: car_wash, gas_delivery and moving (see ../README.md)."""
