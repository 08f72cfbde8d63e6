"""Round 21's three bench domains: pool_service, coffee_subscription and court_rental (see ../README.md)."""
