"""HTTP routes, one module per channel or resource."""
