"""The gateway: every channel normalised into an ``EntryRequest``; owns sessions and runs."""
