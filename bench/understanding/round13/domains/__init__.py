"""Round 13's three bench domains: bike_rental, florist and print_shop (see ../README.md)."""
