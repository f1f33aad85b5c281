"""The largest model that fits: a bisection over parameter counts for any monotone 'does it fit' test.

Memory grows with parameters for every method and format, so fits(n) is true up to some n* and false
after; a bisection on log(n) finds n* to a relative tolerance. The caller supplies fits (built from the
memory tools and a model shape for each size); nothing here knows about GPUs.
"""
from __future__ import annotations

import math
from collections.abc import Callable

MIN_PARAMS = 1e8
MAX_PARAMS = 1e13


def largest_fitting(fits: Callable[[float], bool], low: float = MIN_PARAMS, high: float = MAX_PARAMS,
                    rel_tol: float = 0.01) -> float | None:
    """The largest parameter count n in [low, high] with fits(n), to rel_tol; None if even `low` does not fit."""
    if not fits(low):
        return None
    if fits(high):
        return high
    lo, hi = math.log(low), math.log(high)
    while hi - lo > math.log1p(rel_tol):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if fits(math.exp(mid)) else (lo, mid)
    return math.exp(lo)
