"""Deterministic calculators: pure functions, pydantic in and out, no I/O."""
