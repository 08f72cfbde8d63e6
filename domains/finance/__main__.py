"""``python -m domains.finance --port P`` runs the finance domain as its own process."""

from domains.finance.service import service
from shared.domain_sdk import serve

if __name__ == "__main__":
    serve(service)
