"""Bounds on LLM work: one wall-clock budget per answer and a cap on LLM calls in flight.

A slow or hung model endpoint must not hold a user past the budget, nor take every worker thread from the
rules answers and /healthz: calls run on a small pool behind a semaphore, and the caller stops waiting at the
budget or when the client goes away (a surface sets a cancel event with `cancel_on`). The abandoned work is
told to stop: `checkpoint()` (called before each model call and each tool call) raises once its answer was
given up, so an agent starts no further calls; the HTTP call already in flight ends at its own time-out.
"""
from __future__ import annotations

import contextvars
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

T = TypeVar("T")
DEFAULT_BUDGET_S = 30.0
FALLBACK_RESERVE_S = 0.25  # of the budget, kept for the rules answer a bound falls back to: the whole answer fits
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


# The event that says "stop": set by a surface when its client goes away, and by bounded() for the work it gave up.
_cancel: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar("gpu_advisor_cancel", default=None)
GONE = "the client went away before the answer was ready; the LLM work was stopped"
POLL_S = 0.1


@contextmanager
def cancel_on(event: threading.Event) -> Iterator[threading.Event]:
    """LLM work started inside this block stops when `event` is set (the surface sets it on a disconnect)."""
    token = _cancel.set(event)
    try:
        yield event
    finally:
        _cancel.reset(token)


def checkpoint() -> None:
    """Raise LLMLimit when the current answer was given up (client gone, budget spent): call before each LLM step."""
    event = _cancel.get()
    if event is not None and event.is_set():
        raise LLMLimit(GONE)


def bounded(fn: Callable[[], T], budget: float | None = None) -> T:
    """fn() within the budget; LLMLimit when no slot frees in time, the budget runs out or the client goes away."""
    budget = budget_s() if budget is None else budget
    deadline = time.monotonic() + max(budget * 0.5, budget - FALLBACK_RESERVE_S)
    outer = _cancel.get()
    while not _slots.acquire(timeout=min(POLL_S, max(0.0, deadline - time.monotonic()))):
        if outer is not None and outer.is_set():
            raise LLMLimit(GONE)
        if time.monotonic() >= deadline:
            raise LLMLimit(f"{_concurrency()} LLM calls already in flight for {budget:g} s (GPU_ADVISOR_LLM_CONCURRENCY)")
    stop = threading.Event()  # what the worker's checkpoints see: set when this caller gives up
    ctx = contextvars.copy_context()
    ctx.run(_cancel.set, stop)
    try:
        future = _pool.submit(ctx.run, fn)
    except BaseException:
        _slots.release()
        raise
    future.add_done_callback(lambda _: _slots.release())
    while True:
        try:
            return future.result(timeout=min(POLL_S, max(0.0, deadline - time.monotonic())))
        except FutureTimeout:
            if outer is not None and outer.is_set():
                stop.set()
                raise LLMLimit(GONE) from None
            if time.monotonic() >= deadline:
                stop.set()
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
