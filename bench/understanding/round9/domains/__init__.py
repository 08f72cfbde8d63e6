"""Round 9's three bench domains: phone_plan, parking and utilities (see ../README.md)."""
