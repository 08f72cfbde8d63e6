"""``python -m domains.notifier --port P`` runs the notifier domain as its own process."""

import gc


def main() -> None:
    # the start allocates much and frees almost nothing, so collections during it are wasted CPU;
    # serve() freezes what was built and turns collection back on
    gc.disable()
    from domains.notifier.service import build
    from sdk.service import serve

    domain = build()
    serve(domain.service, domain.app)


if __name__ == "__main__":
    main()
