"""``python -m domains.finance --port P`` runs the finance domain as its own process."""

import gc


def main() -> None:
    # the start allocates much and frees almost nothing, so collections during it are wasted CPU;
    # serve() freezes what was built and turns collection back on
    gc.disable()
    from domains.finance.service import service
    from sdk.service import serve

    serve(service)


if __name__ == "__main__":
    main()
