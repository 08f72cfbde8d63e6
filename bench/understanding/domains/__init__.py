"""Three domain services written from docs/domains.md alone: weather, shop_orders, clinic.

Each one runs as ``python -m bench.understanding.domains.<name> --port N`` and answers with
deterministic fake data (no network).
"""
