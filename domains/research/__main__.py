"""``python -m domains.research --port P`` runs the research domain as its own process.

A bad agent YAML (``RESEARCH_AGENTS_DIR``) stops it here, before it serves anything.
"""

import gc


def main() -> None:
    # the start allocates much and frees almost nothing, so collections during it are wasted CPU;
    # serve() freezes what was built and turns collection back on
    gc.disable()
    from domains.research.service import build
    from sdk.service import serve

    domain = build()
    serve(domain.service, domain.app)


if __name__ == "__main__":
    main()
