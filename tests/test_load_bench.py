"""The load benchmark's arithmetic and a small real run (the full 50 x 20 run is `make bench`)."""
from __future__ import annotations

import pytest

from evals.load_bench import _percentile, run_load


def test_nearest_rank_percentiles():
    values = [float(v) for v in range(1, 21)]      # 1..20
    assert _percentile(values, 50) == 10.0          # rank ceil(0.50 x 20) = 10
    assert _percentile(values, 95) == 19.0          # rank ceil(0.95 x 20) = 19
    assert _percentile(values, 99) == 20.0          # rank ceil(0.99 x 20) = 20 (19.8 rounds up)
    assert _percentile([5.0], 99) == 5.0


def test_a_small_load_run_against_a_real_server():
    report = run_load(clients=4, per_client=3, max_seconds=120)
    assert report.sent == 12 and report.ok == 12 and report.errors == 0
    assert report.p50_ms <= report.p95_ms <= report.p99_ms <= report.max_ms
    assert report.throughput_rps > 0


def test_only_loopback_is_loaded():
    with pytest.raises(ValueError, match="loopback only"):
        run_load(clients=1, per_client=1, base="http://example.com")
