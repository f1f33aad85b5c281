"""Retrieval benchmark: labeled queries (evals/retrieval/queries_*.yaml) against the index.

A query is answered when a passage from its expected document and section (in the query's
language) comes back; recall@3 counts those in the top 3, MRR averages 1/rank within the top 10.
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

import yaml
from pydantic import BaseModel

QUERIES_DIR = Path(__file__).resolve().parent / "retrieval"
MODES = ("dense", "bm25", "hybrid")


class Query(BaseModel):
    query: str
    lang: str
    expect_doc: str
    expect_section: str


class ModeScore(BaseModel):
    mode: str
    lang: str
    queries: int
    recall_at_3: float
    mrr: float


class RetrievalReport(BaseModel):
    scores: list[ModeScore]
    misses: dict[str, list[str]]
    build_seconds: float | None = None
    warm_query_ms_p50: float | None = None
    warm_query_ms_max: float | None = None


def load_queries(directory: Path = QUERIES_DIR) -> list[Query]:
    """Every labeled query."""
    out: list[Query] = []
    for path in sorted(directory.glob("queries_*.yaml")):
        out += [Query(**row) for row in yaml.safe_load(path.read_text(encoding="utf-8"))]
    return out


def _rank(index, q: Query, mode: str) -> int | None:
    passages = index.search(q.query, k=10, mode=mode).passages
    for n, p in enumerate(passages, 1):
        if p.doc_id == q.expect_doc and p.section == q.expect_section and p.lang == q.lang:
            return n
    return None


def evaluate(index, queries: list[Query] | None = None, build_seconds: float | None = None) -> RetrievalReport:
    """recall@3 and MRR per mode and language, and warm-query latency of the hybrid mode."""
    queries = queries or load_queries()
    scores, misses = [], {}
    latencies: list[float] = []
    for mode in MODES:
        ranks: dict[str, list[int | None]] = {}
        for q in queries:
            t0 = time.perf_counter()
            rank = _rank(index, q, mode)
            if mode == "hybrid":
                latencies.append((time.perf_counter() - t0) * 1000)
                if rank is None or rank > 3:
                    misses.setdefault(q.lang, []).append(f"{q.query}  ->  want {q.expect_doc} / {q.expect_section}")
            ranks.setdefault(q.lang, []).append(rank)
            ranks.setdefault("all", []).append(rank)
        for lang, rs in ranks.items():
            scores.append(ModeScore(mode=mode, lang=lang, queries=len(rs),
                                    recall_at_3=round(sum(r is not None and r <= 3 for r in rs) / len(rs), 3),
                                    mrr=round(sum(1 / r for r in rs if r) / len(rs), 3)))
    warm = latencies[1:] or latencies
    return RetrievalReport(scores=scores, misses=misses, build_seconds=build_seconds,
                           warm_query_ms_p50=round(statistics.median(warm), 1) if warm else None,
                           warm_query_ms_max=round(max(warm), 1) if warm else None)


def render(report: RetrievalReport) -> str:
    """The benchmark table."""
    lines = ["Retrieval vs labeled queries (evals/retrieval/)",
             f"{'mode':<8} {'lang':<4} {'queries':>7} {'recall@3':>9} {'MRR':>6}"]
    for s in report.scores:
        lines.append(f"{s.mode:<8} {s.lang:<4} {s.queries:>7} {s.recall_at_3:>9.3f} {s.mrr:>6.3f}")
    if report.build_seconds is not None:
        lines.append(f"\nindex build (shipped corpus, empty data directory): {report.build_seconds:.1f} s")
    if report.warm_query_ms_p50 is not None:
        lines.append(f"warm hybrid query: p50 {report.warm_query_ms_p50:.1f} ms, max {report.warm_query_ms_max:.1f} ms")
    for lang, items in report.misses.items():
        lines.append(f"\nhybrid misses ({lang}, not in top 3):")
        lines += [f"  - {m}" for m in items]
    return "\n".join(lines)
