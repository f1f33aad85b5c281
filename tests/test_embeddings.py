"""The shipped MiniLM loads offline from site-packages and matches sentence-transformers exactly."""
from __future__ import annotations

import math

from knowledge.embeddings import HashEmbedder, MeanPoolingEmbedder, OnnxMiniLM, make_embedder

TEXTS = ["How much GPU memory does QLoRA of a 70B model need?",
         "KV cache bytes per token for grouped-query attention",
         "The A100 80GB SXM has 2,039 GB/s of memory bandwidth"]


def _cos(a, b):
    return sum(x * y for x, y in zip(a, b))


def test_default_embedder_is_the_shipped_minilm_and_agrees_with_sentence_transformers(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("GPU_ADVISOR_EMBEDDING_RUNTIME", "torch")
    emb = make_embedder("all-MiniLM-L6-v2")
    assert isinstance(emb, MeanPoolingEmbedder)
    ours = emb.embed(TEXTS)
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(emb.path), device="cpu", local_files_only=True).encode(
        TEXTS, normalize_embeddings=True)
    for mine, ref in zip(ours, reference):
        assert len(mine) == 384
        assert max(abs(a - b) for a, b in zip(mine, ref)) < 1e-5
    # related questions are closer than unrelated ones
    q = emb.embed(["memory needed to fine-tune Llama 70B with 4-bit QLoRA"])[0]
    assert _cos(q, ours[0]) > _cos(q, ours[2])


def test_hash_embedder_is_deterministic_and_unit_length():
    a, b = HashEmbedder().embed(["H100 显存 80 GB"]), HashEmbedder().embed(["H100 显存 80 GB"])
    assert a == b and math.isclose(sum(x * x for x in a[0]), 1.0, rel_tol=1e-9)


def test_an_unknown_model_name_is_refused_without_downloading():
    import pytest

    from knowledge.embeddings import EmbedderUnavailable

    with pytest.raises(EmbedderUnavailable, match="nothing is downloaded"):
        make_embedder("BAAI/bge-m3")


def test_the_onnx_runtime_gives_the_same_vectors_without_torch(monkeypatch):
    # the default for queries: MiniLM exported once to ONNX, run by onnxruntime + tokenizers (no torch import);
    # the same vectors as the torch pipeline to 1e-4, so the shipped embedding cache stays valid
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    emb = make_embedder("all-MiniLM-L6-v2")
    assert isinstance(emb, OnnxMiniLM) and emb.key == "minilm-l6-v2"
    monkeypatch.setenv("GPU_ADVISOR_EMBEDDING_RUNTIME", "torch")
    reference = make_embedder("all-MiniLM-L6-v2").embed(TEXTS + ["显存", ""])
    for mine, ref in zip(emb.embed(TEXTS + ["显存", ""]), reference):
        assert max(abs(a - b) for a, b in zip(mine, ref)) < 1e-4


def test_a_cold_query_does_not_import_torch():
    from knowledge.embeddings import make_embedder

    import subprocess
    import sys

    make_embedder().embed(["warm: the ONNX export exists after a first use"])
    code = ("import sys; from knowledge.embeddings import make_embedder; make_embedder().embed(['H100 memory']); "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-500:]
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_a_cold_search_ranks_like_the_store_without_importing_chroma_or_torch(tmp_path):
    import json
    import os
    import subprocess
    import sys

    from knowledge.index import IndexSettings, KnowledgeIndex

    index = KnowledgeIndex(IndexSettings(data_dir=tmp_path / "ix", chroma_host=None, embedding_model=None))
    index.build()                                     # syncs Chroma and saves the chunk vectors beside it
    warm = [p.source + "#" + (p.section or "") for p in index.search("H100 显存带宽", k=5).passages]
    code = ("import sys, json; from knowledge.index import IndexSettings, KnowledgeIndex; "
            f"ix = KnowledgeIndex(IndexSettings(data_dir={str(tmp_path / 'ix')!r}, chroma_host=None, embedding_model=None)); "
            "r = ix.search('H100 显存带宽', k=5); "
            "print(json.dumps([[p.source + '#' + (p.section or '') for p in r.passages], "
            "'chromadb' in sys.modules, 'torch' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=os.environ.copy())
    assert out.returncode == 0, out.stderr[-800:]
    cold, chroma_loaded, torch_loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert not chroma_loaded and not torch_loaded
    assert cold == warm   # exact dot products over the saved vectors rank as the store does
