"""``python -m domains.general --port P`` runs the general domain as its own process."""

from domains.general.service import service
from shared.domain_sdk import serve

if __name__ == "__main__":
    serve(service)
