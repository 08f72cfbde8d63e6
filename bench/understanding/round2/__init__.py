"""Second held-out understanding eval: three more domains written from the docs only, and cases."""
