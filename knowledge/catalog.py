"""Load the model and GPU tables once; resolve ids, aliases and bare sizes to records.

Lookups are forgiving about case, spaces, dashes and underscores (`A100 80GB` = `a100-80gb`),
and a Hugging Face repo name matches with or without its organisation prefix. A miss raises
`UnknownItem`, which names the closest valid ids.
"""
from __future__ import annotations

import difflib
import functools
import re
from pathlib import Path

import yaml

from knowledge.generic import generic_model, parse_param_count
from knowledge.schemas import GPU, ModelSpec

DATA_DIR = Path(__file__).resolve().parent / "data"


class UnknownItem(LookupError):
    """A model or GPU name that is not in the catalog; carries suggestions for the message."""

    def __init__(self, kind: str, query: str, suggestions: list[str], list_command: str):
        self.kind, self.query, self.suggestions = kind, query, suggestions
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        shown = query if len(query) <= 60 else query[:57] + "..."
        super().__init__(f"unknown {kind} {shown!r}{hint} ({list_command} lists all)")


def normalize(name: str) -> str:
    """Case-folded name without spaces, dashes or underscores: the lookup key."""
    return re.sub(r"[\s\-_]+", "", name.strip().lower())


class Catalog:
    """The model and GPU tables with alias lookup."""

    def __init__(self, models: list[ModelSpec], gpus: list[GPU]):
        self.models = models
        self.gpus = gpus
        self._model_keys = self._index(models, "model")
        self._names: dict[str, tuple[str, object]] | None = None
        self._gpu_keys = self._index(gpus, "GPU")

    @staticmethod
    def _index(records, kind: str) -> dict[str, object]:
        keys: dict[str, object] = {}
        for rec in records:
            names = [rec.id, *rec.aliases]
            names += [a.split("/", 1)[1] for a in rec.aliases if "/" in a]
            for name in names:
                key = normalize(name)
                other = keys.get(key)
                if other is not None and other is not rec:
                    raise ValueError(f"{kind} name {name!r} is used by both {other.id} and {rec.id}")
                keys[key] = rec
        return keys

    def model(self, query: str) -> tuple[ModelSpec, str | None]:
        """The model record for an id, alias, HF repo name or bare size ('70b', '700亿')."""
        rec = self._model_keys.get(normalize(query))
        if rec is not None:
            return rec, None
        n_params = parse_param_count(query)
        if n_params is not None:
            spec, reference = generic_model(n_params, self._llama3_references())
            return spec, (f"'{query}' names no specific model: sized as a generic dense decoder with exactly "
                          f"{n_params:,} parameters shaped like {reference.name} (layers {spec.num_layers}, "
                          f"hidden {spec.hidden_size}, {spec.num_attention_heads} heads / {spec.num_kv_heads} KV heads, "
                          f"MLP {spec.intermediate_size}, vocab {spec.vocab_size})")
        raise UnknownItem("model", query, self._suggest(query, self._model_keys), "gpu-advisor models")

    def gpu(self, query: str) -> tuple[GPU, str | None]:
        """The GPU record for an id or alias; a name shared by variants resolves to the default one, with a note."""
        rec = self._gpu_keys.get(normalize(query))
        if rec is None:
            raise UnknownItem("GPU", query, self._suggest(query, self._gpu_keys), "gpu-advisor gpus")
        stem = normalize(query)
        variants = [g.id for g in self.gpus if g is not rec and _is_prefix_of(stem, g.id)]
        if not variants or normalize(rec.id) == stem:
            return rec, None
        return rec, f"'{query}' is ambiguous ({', '.join([rec.id, *variants])}); taken as {rec.name} ({rec.id})"

    def mentions(self, text: str) -> list[tuple[int, str, object]]:
        """GPUs and models named in free text, in order: [(token position, 'gpu'|'model', record)].

        Longer names win ('A100 80GB PCIe' before 'A100'); CJK text around the names is ignored.
        """
        if self._names is None:
            names: dict[str, tuple[str, object]] = {}
            for rec, kind in [*((g, "gpu") for g in self.gpus), *((m, "model") for m in self.models)]:
                for name in (rec.id, *rec.aliases):
                    names.setdefault(normalize(name.split("/")[-1]), (kind, rec))
            self._names = names
        latin = re.sub(r"[\u3400-\u9fff，。？！、：；（）]+", " ", text.lower())
        tokens = re.findall(r"[a-z0-9]+(?:[.\-][a-z0-9]+)*", latin)
        found: list[tuple[int, str, object]] = []
        used: set[int] = set()
        for n in (4, 3, 2, 1):
            for start in range(len(tokens) - n + 1):
                span = set(range(start, start + n))
                joined = normalize("".join(tokens[start:start + n]))
                hit = (self._names.get(joined) or (self._names.get(joined[:-1]) if joined.endswith("s") else None)
                       or self._names.get(re.sub(r"(\d)g$", r"\1gb", joined)))  # 'A100 40G' = 'a100 40gb'
                if hit and not span & used and not any(r is hit[1] for _, _, r in found):
                    used |= span
                    found.append((start, hit[0], hit[1]))
        return sorted(found, key=lambda f: f[0])

    def _llama3_references(self) -> list[ModelSpec]:
        ids = ["llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"]
        return [self._model_keys[normalize(i)] for i in ids]

    @staticmethod
    def _suggest(query: str, keys: dict[str, object]) -> list[str]:
        if len(query) > 200:
            return []
        close = difflib.get_close_matches(normalize(query), list(keys), n=8, cutoff=0.6)
        out: list[str] = []
        for key in close:
            rid = keys[key].id
            if rid not in out:
                out.append(rid)
        return out[:4]


def _is_prefix_of(stem: str, gpu_id: str) -> bool:
    """True when `stem` names a leading part of `gpu_id` ('a100' of 'a100-40gb', not 'l4' of 'l40s')."""
    parts = gpu_id.split("-")
    return any(normalize("".join(parts[:k])) == stem for k in range(1, len(parts)))


def _load(path: Path, record_type):
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ~10x faster start-up
    rows = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    return [record_type(**row) for row in rows]


@functools.lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The catalog built from knowledge/data/*.yaml (loaded once per process)."""
    return Catalog(_load(DATA_DIR / "models.yaml", ModelSpec), _load(DATA_DIR / "gpus.yaml", GPU))
