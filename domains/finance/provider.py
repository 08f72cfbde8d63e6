"""Where finance data comes from.

The domain talks to a :class:`MarketDataProvider` only, so a live feed can replace the bundled
sample snapshot without touching resolution or formatting. Reference data (which instruments
exist, their names and markets) is separate from prices because symbol resolution needs the
universe up front while prices are fetched per request.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

SAMPLE_SNAPSHOT_PATH = Path(__file__).parent / "data" / "sample_snapshot.json"


@dataclass(frozen=True)
class Market:
    code: str
    names: Mapping[str, str]  # language -> display name
    exchange: str
    currency: str
    timezone: str
    aliases: tuple[str, ...]

    def display(self, language: str) -> str:
        return self.names.get(language) or self.names.get("pt") or self.code


@dataclass(frozen=True)
class Instrument:
    symbol: str
    name: str
    market: str
    exchange: str
    currency: str
    timezone: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Quote:
    symbol: str
    price: float
    change_pct: float
    currency: str
    as_of: str
    #: "sample_snapshot" for the bundled data; a real provider names its feed.
    source: str


class MarketDataProvider(Protocol):
    """What the finance domain needs from a data source."""

    source: str

    def markets(self) -> Mapping[str, Market]: ...

    def instruments(self) -> Sequence[Instrument]: ...

    async def quotes(self, symbols: Iterable[str]) -> dict[str, Quote]:
        """Prices for the symbols it knows; unknown symbols are simply absent."""
        ...


class SnapshotProvider:
    """Reads a fixed JSON snapshot (default: the bundled SAMPLE data, not live prices)."""

    def __init__(self, path: Path = SAMPLE_SNAPSHOT_PATH):
        raw: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        self.source: str = raw.get("source", "snapshot")
        self.as_of: str = raw["as_of"]
        self._markets = {
            code: Market(
                code=code,
                names=dict(m["name"]),
                exchange=m["exchange"],
                currency=m["currency"],
                timezone=m["timezone"],
                aliases=tuple(m.get("aliases", ())),
            )
            for code, m in raw["markets"].items()
        }
        self._instruments: list[Instrument] = []
        self._quotes: dict[str, Quote] = {}
        for item in raw["instruments"]:
            if item["market"] not in self._markets:
                raise ValueError(f"{path}: instrument {item['symbol']} names unknown market {item['market']}")
            self._instruments.append(
                Instrument(
                    symbol=item["symbol"],
                    name=item["name"],
                    market=item["market"],
                    exchange=item["exchange"],
                    currency=item["currency"],
                    timezone=item["timezone"],
                    aliases=tuple(item.get("aliases", ())),
                )
            )
            self._quotes[item["symbol"]] = Quote(
                symbol=item["symbol"],
                price=float(item["price"]),
                change_pct=float(item["change_pct"]),
                currency=item["currency"],
                as_of=self.as_of,
                source=self.source,
            )

    def markets(self) -> Mapping[str, Market]:
        return self._markets

    def instruments(self) -> Sequence[Instrument]:
        return self._instruments

    async def quotes(self, symbols: Iterable[str]) -> dict[str, Quote]:
        return {s: self._quotes[s] for s in symbols if s in self._quotes}
