"""Coordination between gateways: per-session locks, leases, quotas and registry sync (Redis when
configured)."""
