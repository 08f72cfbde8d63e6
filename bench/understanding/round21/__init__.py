"""Round 21 of the held-out understanding eval: a swimming-pool maintenance company, a coffee
subscription and a tennis/padel court rental (see README.md)."""
