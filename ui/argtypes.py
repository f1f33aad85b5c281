"""argparse types shared by the CLI's sub-commands: each refuses what it cannot use and says what it accepts."""
from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"{v} must be at least 1")
    return v


def backend_name(text: str) -> str:
    """argparse type: rules, auto, openai:MODEL or ollama:MODEL."""
    import re

    if text in ("rules", "auto", "openai", "ollama") or re.fullmatch(r"(openai|ollama):\S+", text):
        return text
    raise argparse.ArgumentTypeError(f"{text!r} is not a backend: use rules, auto, openai:MODEL or ollama:MODEL")


# The most a GPU-hour is billed anywhere (a rented B300 is ~$10); far above that is a typo or a test of the bounds.
MAX_PRICE_PER_GPU_HOUR = 1000.0


def price_per_hour(text: str) -> float:
    """argparse type: a price per GPU-hour, finite and in (0, 1000]."""
    import math

    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number: give a price per GPU-hour, e.g. 2.5") from None
    if not math.isfinite(v) or v <= 0 or v > MAX_PRICE_PER_GPU_HOUR:
        raise argparse.ArgumentTypeError(f"{text} is not a price per GPU-hour: give a number above 0 and at most "
                                         f"{MAX_PRICE_PER_GPU_HOUR:g} (e.g. 2.5)")
    return v
