"""``python -m domains.general --port P`` runs the general domain as its own process."""

from domains.general.service import service
from sdk.service import serve

if __name__ == "__main__":
    serve(service)
