"""Embeddings of the shipped corpus, computed once and shipped beside it (knowledge/data/embeddings-KEY.npz).

The first index build on a new machine would otherwise spend most of its time loading torch and
running MiniLM over ~300 chunks (~30 s on 2 cores). Vectors are keyed by each chunk's content hash,
so a changed document simply misses the cache and is embedded at build time: a stale cache costs
time, never correctness. Regenerate with `make embeddings` after editing knowledge/docs or the tables.
"""
from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def cache_path(embedder_key: str) -> Path:
    return DATA / f"embeddings-{embedder_key}.npz"


def load_cache(embedder_key: str) -> dict[str, list[float]]:
    """hash -> vector for the embedder, or {} when no cache ships for it."""
    path = cache_path(embedder_key)
    if not path.exists():
        return {}
    import numpy as np

    with np.load(path) as data:
        return {str(h): v.astype(np.float32).tolist() for h, v in zip(data["hashes"], data["vectors"])}


def write_cache(index) -> Path:
    """Embed every shipped (non-external) chunk of `index` and write the cache for its embedder."""
    import numpy as np

    chunks = [c for c in index.chunks() if c.kind != "external"]
    vectors = index.embedder.embed([c.embed_text for c in chunks])
    path = cache_path(index.embedder.key)
    np.savez_compressed(path, hashes=np.array([c.hash for c in chunks]), vectors=np.array(vectors, dtype=np.float16))
    return path


def main() -> int:
    """`python -m knowledge.embedding_cache`: rebuild the shipped cache for the default embedder."""
    import tempfile

    from knowledge.index import IndexSettings, KnowledgeIndex

    with tempfile.TemporaryDirectory() as tmp:
        index = KnowledgeIndex(IndexSettings(data_dir=Path(tmp), chroma_host=None, embedding_model=None))
        path = write_cache(index)
    print(f"wrote {path} ({path.stat().st_size / 1e3:.0f} kB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
