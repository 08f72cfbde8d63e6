"""``python -m domains.research --port P`` runs the research domain as its own process.

A bad agent YAML (``RESEARCH_AGENTS_DIR``) stops it here, before it serves anything.
"""

from domains.research.service import build
from sdk.service import serve

if __name__ == "__main__":
    domain = build()
    serve(domain.service, domain.app)
