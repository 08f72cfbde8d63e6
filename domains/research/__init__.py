"""The research domain: a multi-agent hypothesis assistant on our graph engine (``graph``).

An orchestrator (conversational facilitator), a structurer and a methodologist are nodes of one
graph; the person is an interrupt. ``python -m domains.research --port P`` serves it.
"""
