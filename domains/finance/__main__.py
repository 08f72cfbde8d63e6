"""``python -m domains.finance --port P`` runs the finance domain as its own process."""

from domains.finance.service import service
from sdk.service import serve

if __name__ == "__main__":
    serve(service)
