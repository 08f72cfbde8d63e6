"""``python -m domains.notifier --port P`` runs the notifier domain as its own process."""

from domains.notifier.service import build
from sdk.service import serve

if __name__ == "__main__":
    domain = build()
    serve(domain.service, domain.app)
