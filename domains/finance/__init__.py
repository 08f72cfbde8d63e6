"""Finance domain: stock quotes, top movers and ticker search over a pluggable data provider."""
