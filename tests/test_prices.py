"""Price table: every record sourced and dated, GPUs exist, and the user's file overrides it."""
from __future__ import annotations

import json

import pytest

from knowledge.prices import PriceFileError, load_prices, shipped_prices
from ui.cli import main


def test_every_price_names_a_known_gpu_and_has_source_and_date(catalog):
    ids = {g.id for g in catalog.gpus}
    prices = shipped_prices()
    assert len(prices) >= 30
    for p in prices:
        assert p.gpu in ids and p.source.strip() and p.as_of.strip() and p.confidence


def test_rentals_cover_the_gpus_people_compare():
    rented = {p.gpu for p in shipped_prices() if p.kind.startswith("rent")}
    assert {"a100-80gb", "h100", "h200", "h20", "b200"} <= rented
    assert any(p.currency == "CNY" for p in shipped_prices())


def test_user_file_overrides_and_adds(tmp_path, monkeypatch):
    target = shipped_prices()[0]
    f = tmp_path / "prices.yaml"
    f.write_text(f"""
- id: {target.id}
  gpu: {target.gpu}
  kind: {target.kind}
  unit: {target.unit}
  currency: {target.currency}
  low: 1.0
  high: 1.5
- id: my-h100-quote
  gpu: h100
  kind: buy_new
  unit: per_gpu
  currency: USD
  low: 21000
  high: 21000
  provider: our reseller
""", encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_PRICES", str(f))
    table = load_prices()
    by_id = {p.id: p for p in table.records}
    assert by_id[target.id].high == 1.5 and "user override" in by_id[target.id].source
    assert by_id["my-h100-quote"].provider == "our reseller"
    assert table.user_file == str(f) and set(table.overridden) == {target.id, "my-h100-quote"}


@pytest.mark.parametrize("text,message", [
    ("- id: x\n  gpu: h100\n  kind: rent_on_demand\n  unit: per_gpu\n  currency: USD\n  low: 1\n  high: 2\n", "rentals are per_gpu_hour"),
    ("- id: x\n  gpu: h100\n  kind: buy_new\n  unit: per_gpu\n  currency: USD\n  low: 5\n  high: 2\n", "low 5.0 > high 2.0"),
    ("not: [a, list", "not valid YAML"),
])
def test_bad_user_files_say_what_is_wrong(tmp_path, monkeypatch, text, message):
    f = tmp_path / "prices.yaml"
    f.write_text(text, encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_PRICES", str(f))
    with pytest.raises(PriceFileError, match=message):
        load_prices()


def test_prices_cli_names_the_override_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GPU_ADVISOR_PRICES", str(tmp_path / "missing.yaml"))
    assert main(["prices"]) == 2
    assert "does not exist" in capsys.readouterr().err
    monkeypatch.delenv("GPU_ADVISOR_PRICES")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert main(["prices", "--gpu", "h100", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["prices"] and all(p["gpu"] == "h100" for p in data["prices"])
