"""Contracts every part of the platform speaks: models, statuses, manifests, errors, settings, db."""
