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
