"""Price estimates: the shipped table, overridden by the user's file.

The user's file (GPU_ADVISOR_PRICES, else ~/.config/gpu-advisor/prices.yaml) uses the same
records as knowledge/data/prices.yaml; a record with an existing id replaces it, a new id adds
one. `source`, `as_of` and `confidence` may be left out there: they default to the file's path,
its modification date and "high" (the user knows their own quote).
"""
from __future__ import annotations

import datetime as dt
import functools
import os
from pathlib import Path

import yaml
from pydantic import BaseModel, ValidationError

from knowledge.schemas import Price

SHIPPED = Path(__file__).resolve().parent / "data" / "prices.yaml"


class PriceTable(BaseModel):
    """Price records in force, and which user file (if any) changed them."""

    records: list[Price]
    user_file: str | None = None
    overridden: list[str] = []


class PriceFileError(ValueError):
    """A user price file that cannot be used, with what was wrong."""


@functools.lru_cache(maxsize=1)
def shipped_prices() -> list[Price]:
    """The project's price table (empty if the file is absent)."""
    if not SHIPPED.exists():
        return []
    return [Price(**row) for row in yaml.safe_load(SHIPPED.read_text(encoding="utf-8")) or []]


def user_price_path() -> Path:
    """Where the user's override file is looked for."""
    return Path(os.environ.get("GPU_ADVISOR_PRICES") or Path.home() / ".config/gpu-advisor/prices.yaml").expanduser()


def load_prices(path: Path | None = None, gpu_ids: set[str] | None = None) -> PriceTable:
    """Shipped prices with the user's file applied on top."""
    records = {p.id: p for p in shipped_prices()}
    path = path or user_price_path()
    if not path.exists():
        if os.environ.get("GPU_ADVISOR_PRICES"):
            raise PriceFileError(f"GPU_ADVISOR_PRICES points to {path}, which does not exist")
        return PriceTable(records=list(records.values()))
    try:
        rows = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    except yaml.YAMLError as e:
        raise PriceFileError(f"{path}: not valid YAML ({e.__class__.__name__})") from None
    if not isinstance(rows, list):
        raise PriceFileError(f"{path}: expected a list of price records (see knowledge/data/prices.yaml)")
    mtime = dt.date.fromtimestamp(path.stat().st_mtime).isoformat()
    overridden = []
    for n, row in enumerate(rows, 1):
        if not isinstance(row, dict):
            raise PriceFileError(f"{path}: record {n} is not a mapping")
        row = {"source": f"user override ({path})", "as_of": mtime, "confidence": "high", "source_kind": "vendor"} | row
        try:
            price = Price(**row)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(x) for x in first.get("loc", ()))
            raise PriceFileError(f"{path}: record {n} ({row.get('id', '?')}): {where} {first['msg']}") from None
        if gpu_ids is not None and price.gpu not in gpu_ids:
            raise PriceFileError(f"{path}: record {n}: unknown GPU {price.gpu!r} (gpu-advisor gpus lists the ids)")
        overridden.append(price.id)
        records[price.id] = price
    return PriceTable(records=list(records.values()), user_file=str(path), overridden=overridden)


SESSION_PRICE_PREFIX = "session-"


def is_session_override(price: Price) -> bool:
    """A price the user typed for this session, not a record from a table."""
    return price.id.startswith(SESSION_PRICE_PREFIX)


def session_purchase_override(gpu_id: str, per_card: float, currency: str = "USD", used: bool = False) -> Price:
    """A purchase price per card a user typed for this session ('二手 3090 5500 一张', 'L40S $7.5k each')."""
    if not isinstance(per_card, (int, float)) or not 0 < per_card <= 10_000_000:
        raise PriceFileError(f"a purchase price must be between 0 and 10,000,000 {currency} per card (got {per_card!r})")
    kind = "buy_used" if used else "buy_new"
    return Price(id=f"{SESSION_PRICE_PREFIX}{gpu_id}-{kind}", gpu=gpu_id, kind=kind, unit="per_gpu", currency=currency,
                 low=per_card, high=per_card, typical=per_card, confidence="high",
                 source="your price in this message", source_kind="vendor", as_of=dt.date.today().isoformat())


def session_rental_override(gpu_id: str, per_gpu_hour: float, currency: str = "USD") -> Price:
    """An on-demand rental price a user typed for this session (web Settings, API `prices`)."""
    if not isinstance(per_gpu_hour, (int, float)) or not 0 < per_gpu_hour <= 10_000:
        raise PriceFileError(f"a rental price must be between 0 and 10,000 {currency} per GPU-hour (got {per_gpu_hour!r})")
    return Price(id=f"{SESSION_PRICE_PREFIX}{gpu_id}-rent", gpu=gpu_id, kind="rent_on_demand", unit="per_gpu_hour", currency=currency,
                 low=per_gpu_hour, high=per_gpu_hour, typical=per_gpu_hour, confidence="high",
                 source="your override for this session", source_kind="vendor", as_of=dt.date.today().isoformat())
