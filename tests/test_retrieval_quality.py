"""Retrieval with the real MiniLM over the shipped corpus: the benchmark's targets, and a fresh cache."""
from __future__ import annotations

import pytest

from evals.retrieval_bench import evaluate, load_queries
from knowledge.embedding_cache import load_cache
from knowledge.index import IndexSettings, KnowledgeIndex


@pytest.fixture(scope="module")
def real_index(tmp_path_factory):
    index = KnowledgeIndex(IndexSettings(data_dir=tmp_path_factory.mktemp("ix"), chroma_host=None, embedding_model=None))
    index.build()
    return index


def test_the_labeled_set_is_bilingual_and_large_enough():
    queries = load_queries()
    assert len(queries) >= 60
    zh = sum(q.lang == "zh" for q in queries)
    assert abs(zh - (len(queries) - zh)) <= len(queries) * 0.1


def test_hybrid_recall_at_3_is_at_least_0_9_in_both_languages(real_index):
    report = evaluate(real_index)
    hybrid = {s.lang: s for s in report.scores if s.mode == "hybrid"}
    assert hybrid["en"].recall_at_3 >= 0.9, report.misses.get("en")
    assert hybrid["zh"].recall_at_3 >= 0.9, report.misses.get("zh")


def test_shipped_embedding_cache_matches_the_corpus_and_the_model(real_index):
    cache = load_cache(real_index.embedder.key)
    shipped = [c for c in real_index.chunks() if c.kind != "external"]
    stale = [c.id for c in shipped if c.hash not in cache]
    assert not stale, f"knowledge/data/embeddings-*.npz is stale for {len(stale)} chunks: run `make embeddings`"
    sample = shipped[::60]
    fresh = real_index.embedder.embed([c.embed_text for c in sample])
    for chunk, vec in zip(sample, fresh):
        cos = sum(a * b for a, b in zip(vec, cache[chunk.hash]))
        assert cos > 0.999   # float16 storage of the same vector
