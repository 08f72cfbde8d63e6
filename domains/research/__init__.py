"""The research domain: seed 001's multi-agent hypothesis assistant on our graph engine (seed 000).

An orchestrator (conversational facilitator), a structurer and a methodologist are nodes of one
graph; the person is an interrupt. ``python -m domains.research --port P`` serves it.
"""
