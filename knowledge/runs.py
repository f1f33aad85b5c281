"""Published training runs (knowledge/data/training_runs.yaml): load them once, find the one a question names.

`find_run("Llama 2 70B 训练用了多少 GPU 小时")` returns the Llama 2 70B record. Names are matched as
whole tokens, case- and punctuation-insensitively ("llama2-70b" = "Llama 2 70B"), and text in
other scripts around them is ignored; a name that is not a run in the table ("Llama 9 900B",
a bare "Llama 2") finds nothing rather than a near miss.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

import yaml

from knowledge.schemas import TrainingRun

DATA_PATH = Path(__file__).resolve().parent / "data" / "training_runs.yaml"
_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+)*")


def _tokens(text: str) -> list[str]:
    """Lower-case latin/digit tokens; '3.1' stays one token, dashes, slashes and CJK split."""
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).lower())


def _key(name: str) -> str:
    return "".join(_tokens(name))


@functools.lru_cache(maxsize=1)
def _load() -> tuple[TrainingRun, ...]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    rows = yaml.load(DATA_PATH.read_text(encoding="utf-8"), Loader=loader)
    runs = tuple(TrainingRun(**row) for row in rows)
    _check(runs)
    return runs


def _check(runs: tuple[TrainingRun, ...]) -> None:
    """Ids unique, GPU and model ids known to the catalog, no name shared by two runs."""
    from knowledge.catalog import default_catalog

    cat = default_catalog()
    gpu_ids = {g.id for g in cat.gpus}
    model_ids = {m.id for m in cat.models}
    seen: dict[str, str] = {}
    for run in runs:
        if run.id in seen.values():
            raise ValueError(f"training run id {run.id!r} appears twice")
        if run.gpu not in gpu_ids:
            raise ValueError(f"training run {run.id}: unknown GPU id {run.gpu!r}")
        if run.model is not None and run.model not in model_ids:
            raise ValueError(f"training run {run.id}: unknown model id {run.model!r}")
        for name in (run.id, run.name, *run.aliases):
            key = _key(name)
            if seen.get(key, run.id) != run.id:
                raise ValueError(f"training run name {name!r} is used by both {seen[key]} and {run.id}")
            seen[key] = run.id


@functools.lru_cache(maxsize=1)
def _index() -> tuple[dict[str, TrainingRun], int]:
    names: dict[str, TrainingRun] = {}
    longest = 1
    for run in _load():
        for name in (run.id, run.name, *run.aliases):
            names[_key(name)] = run
            longest = max(longest, len(_tokens(name)))
    return names, longest


def load_training_runs() -> list[TrainingRun]:
    """Every published run in the table (parsed and checked once per process)."""
    return list(_load())


def find_runs(text: str) -> list[TrainingRun]:
    """The runs named in free text, in order of first mention, each once."""
    names, longest = _index()
    tokens = _tokens(text)
    found: list[TrainingRun] = []
    start = 0
    while start < len(tokens):
        for n in range(min(longest, len(tokens) - start), 0, -1):
            run = names.get("".join(tokens[start:start + n]))
            if run is not None:
                if run not in found:
                    found.append(run)
                start += n
                break
        else:
            start += 1
    return found


def find_run(text: str) -> TrainingRun | None:
    """The run a question names (the first one when it names several), or None."""
    runs = find_runs(text)
    return runs[0] if runs else None


# Words that may stand before a bare size without naming a model ('for 405B', 'the 70B').
_NOT_A_NAME = {"for", "of", "on", "a", "an", "the", "with", "to", "at", "by", "is", "was", "and", "or", "vs", "train",
               "trained", "training", "model", "that", "this", "about", "s"}


def run_for(text: str, model: str | None = None) -> TrainingRun | None:
    """The run a question is about: named in `text`; else the latest run of the catalog `model`; else, for a
    bare size such as '405b', the one run with that many parameters (within 2%)."""
    run = find_run(text)
    if run is not None or not model:
        return run
    runs = load_training_runs()
    of_model = [r for r in runs if r.model == model]
    if of_model:
        return of_model[-1]  # the table lists a model's runs oldest first (Llama 3 before Llama 3.1)
    named = re.search(rf"([a-z]+)[\s_-]*(?:[\d.]+[\s_-]*)?{re.escape(model)}", text.lower())
    if re.fullmatch(r"[\d.]+b", model) and (named is None or named.group(1) in _NOT_A_NAME):
        want = float(model[:-1]) * 1e9  # a truly bare size ('405B'), not 'OLMo 7B' (a model the table lacks)
        hits = [r for r in runs if abs(r.params / want - 1) < 0.02]
        return hits[0] if len(hits) == 1 else None
    return None
