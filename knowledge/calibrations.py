"""Your serving benchmarks, kept between runs: the correction factors `gpu-advisor calibrate` stored.

The file is GPU_ADVISOR_CALIBRATION, else ~/.config/gpu-advisor/calibration.json: a JSON list of
tools.serve_measured.Correction, one per deployment (model, card, engine, weight format); a new run of the same
deployment replaces the old one. Read at the edge (CLI, web) and passed into the planner, never read inside a tool.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from tools.serve_measured import Correction


def path() -> Path:
    return Path(os.environ.get("GPU_ADVISOR_CALIBRATION") or Path.home() / ".config/gpu-advisor/calibration.json").expanduser()


def load() -> list[Correction]:
    p = path()
    if not p.exists():
        return []
    try:
        return [Correction(**c) for c in json.loads(p.read_text(encoding="utf-8"))]
    except (ValueError, TypeError) as e:
        raise ValueError(f"{p} is not a calibration file written by `gpu-advisor calibrate` ({e}); move it away or "
                         "point GPU_ADVISOR_CALIBRATION elsewhere") from None


def save(new: Correction) -> Path:
    """Store `new`, replacing a correction for the same deployment (same model, card, engine, format)."""
    d = new.deployment
    kept = [c for c in load() if not c.deployment.matches(d.model, d.gpu, d.engine, d.precision)]
    p = path()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps([c.model_dump(mode="json") for c in kept + [new]], indent=1), encoding="utf-8")
    return p


def find(model: str, gpu: str, engine: str, precision: str) -> Correction | None:
    return next((c for c in load() if c.deployment.matches(model, gpu, engine, precision)), None)
