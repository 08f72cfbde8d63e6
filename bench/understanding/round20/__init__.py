"""Round 20 of the held-out understanding eval: a bowling alley, a passport and ID office and a
water delivery service (see README.md)."""
