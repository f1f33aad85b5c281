"""Bounds on LLM work: one wall-clock budget per answer and a cap on LLM calls in flight.

A slow or hung model endpoint must not hold a user past the budget, nor take every worker thread from the
rules answers and /healthz: calls run on a small pool behind a semaphore, and the caller stops waiting at the
budget (the HTTP client's own time-out ends the abandoned call).
"""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

T = TypeVar("T")
DEFAULT_BUDGET_S = 30.0
DEFAULT_CONCURRENCY = 2
MAX_TOOL_CALLS = 8  # an agent's tool calls per answer


class LLMLimit(RuntimeError):
    """A bound was hit: the answer falls back to the rules backend and says which bound."""


def budget_s() -> float:
    """Seconds one answer may spend on the LLM (GPU_ADVISOR_LLM_BUDGET_S, default 30)."""
    return float(os.environ.get("GPU_ADVISOR_LLM_BUDGET_S") or DEFAULT_BUDGET_S)


def _concurrency() -> int:
    return max(1, int(os.environ.get("GPU_ADVISOR_LLM_CONCURRENCY") or DEFAULT_CONCURRENCY))


_slots = threading.BoundedSemaphore(_concurrency())
_pool = ThreadPoolExecutor(max_workers=_concurrency() * 2, thread_name_prefix="llm")


def bounded(fn: Callable[[], T], budget: float | None = None) -> T:
    """fn() within the budget; LLMLimit when no slot frees in time or the budget runs out."""
    budget = budget_s() if budget is None else budget
    t0 = time.monotonic()
    if not _slots.acquire(timeout=budget):
        raise LLMLimit(f"{_concurrency()} LLM calls already in flight for {budget:g} s (GPU_ADVISOR_LLM_CONCURRENCY)")
    try:
        future = _pool.submit(fn)
    except BaseException:
        _slots.release()
        raise
    future.add_done_callback(lambda _: _slots.release())
    try:
        return future.result(timeout=max(0.0, budget - (time.monotonic() - t0)))
    except FutureTimeout:
        raise LLMLimit(f"the LLM took longer than the {budget:g} s budget (GPU_ADVISOR_LLM_BUDGET_S)") from None


class slot:
    """`with slot(budget):` one of the LLM call slots for a streamed answer (LLMLimit when none frees in time)."""

    def __init__(self, budget: float | None = None):
        self.budget = budget_s() if budget is None else budget

    def __enter__(self) -> float:
        if not _slots.acquire(timeout=self.budget):
            raise LLMLimit(f"{_concurrency()} LLM calls already in flight for {self.budget:g} s (GPU_ADVISOR_LLM_CONCURRENCY)")
        return time.monotonic() + self.budget  # the deadline

    def __exit__(self, *exc) -> None:
        _slots.release()
