"""Round 18 of the held-out understanding eval: escape room, translation agency and blood donation
(see README.md)."""
