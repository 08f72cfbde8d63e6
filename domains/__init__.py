"""Domain services: each subpackage is its own FastAPI app and process (``python -m domains.<name>``).

Domain logic lives only here; the core (intent, planner, execution, orchestrator) knows domains
through their manifests alone.
"""
