"""General domain: help, small talk, and the honest answer to requests nobody here can handle."""
