"""The round-2 bench domains (restaurant, payments, helpdesk), each runnable with ``python -m``."""
