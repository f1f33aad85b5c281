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

from knowledge.generic import generic_model, generic_moe, parse_moe_shape, parse_param_count
from knowledge.schemas import GPU, AppleChip, ModelSpec, Phone

DATA_DIR = Path(__file__).resolve().parent / "data"


class UnknownItem(LookupError):
    """A model or GPU name that is not in the catalog; carries suggestions for the message."""

    def __init__(self, kind: str, query: str, suggestions: list[str], list_command: str, how: str | None = None):
        self.kind, self.query, self.suggestions = kind, query, suggestions
        self.list_command, self.how = list_command, how
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        shown = query if len(query) <= 60 else query[:57] + "..."
        self.shown = shown
        super().__init__(f"unknown {kind} {shown!r}{hint} ({list_command} lists all)" + (f"; {how}" if how else ""))

    def message(self, lang: str) -> str:
        """The message in the answer's language (the how-to-add line stays as written: it names files and flags)."""
        if lang != "zh":
            return str(self)
        kind = {"model": "模型", "gpu": "GPU"}.get(self.kind, self.kind)
        hint = f"；是不是指 {'、'.join(self.suggestions)}？" if self.suggestions else ""
        return (f"没有这个{kind}：{self.shown!r}{hint}（`{self.list_command}` 列出全部）"
                + (f"；{self.how}" if self.how else ""))


def normalize(name: str) -> str:
    """Case-folded name without spaces, dashes or underscores: the lookup key."""
    return re.sub(r"[\s\-_]+", "", name.strip().lower())


class Catalog:
    """The model and GPU tables with alias lookup."""

    def __init__(self, models: list[ModelSpec], gpus: list[GPU]):
        self.models = models
        self.gpus = gpus
        self.problems: list[str] = []  # entries of the user's models file that could not be read
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
        """The model record for an id, alias, HF repo name, bare size ('70b', '700亿'), or a path to a
        config.json (or a folder holding one) for a model in no catalog."""
        rec = self._model_keys.get(normalize(query))
        if rec is not None:
            return rec, None
        from knowledge.hf_config import load_config_path, looks_like_path

        if looks_like_path(query):
            spec, notes = load_config_path(query)
            return spec, (f"{spec.id}: read from {query} ({spec.params_total / 1e9:.2f}e9 parameters computed from the "
                          f"architecture" + (f"; {'; '.join(notes)}" if notes else "") + ")")
        shape = parse_moe_shape(query)
        if shape is not None:
            spec, reference = generic_moe(*shape, self.models)
            return spec, (f"'{query}' is a stated MoE shape: sized as a generic MoE with {shape[0]:,} parameters, "
                          f"{shape[1]:,} active per token, shaped like {reference.name} ({spec.moe.routed_experts} routed "
                          f"experts of width {spec.moe.expert_intermediate_size}, {spec.moe.experts_per_token} per token, "
                          f"{spec.num_layers} layers, hidden {spec.hidden_size})")
        n_params = parse_param_count(query)
        if n_params is not None:
            spec, reference = generic_model(n_params, self._llama3_references())
            return spec, (f"'{query}' names no specific model: sized as a generic dense decoder with exactly "
                          f"{n_params:,} parameters shaped like {reference.name} (layers {spec.num_layers}, "
                          f"hidden {spec.hidden_size}, {spec.num_attention_heads} heads / {spec.num_kv_heads} KV heads, "
                          f"MLP {spec.intermediate_size}, vocab {spec.vocab_size})")
        if re.fullmatch(r"[\w.\-]+/[\w.\-]+", query.strip()):  # a Hub repo id the catalog does not hold
            raise UnknownItem("model", query, self._suggest(query, self._model_keys), "gpu-advisor models",
                              how=f"to size it, download https://huggingface.co/{query.strip()}/resolve/main/config.json "
                                  "and pass its path (--model ./config.json, or the folder), or register it with "
                                  "`gpu-advisor models add PATH`")
        raise UnknownItem("model", query, self._suggest(query, self._model_keys), "gpu-advisor models")

    def variants(self, gpu_id: str) -> list[str]:
        """The ids of every card sold under the same model name as `gpu_id` (H100: SXM5, PCIe, NVL; A100: 40/80 GB,
        SXM and PCIe); [gpu_id] when it has none. RTX 4090 D is a model of its own, not a 4090 variant."""
        want = model_name(next((g.name for g in self.gpus if g.id == gpu_id), ""))
        found = [g.id for g in self.gpus if want and model_name(g.name) == want]
        return found or [gpu_id]

    def stock_versions(self, gpu_id: str) -> list[GPU]:
        """The versions the maker sells of `gpu_id`'s model (its variants less third-party memory mods, whose form
        factor says 'modified'): what 'the RTX 4090 comes with 48GB' is checked against."""
        return [g for g in self.gpus if g.id in self.variants(gpu_id) and "modified" not in (g.form_factor or "").lower()]

    def gpu(self, query: str) -> tuple[GPU, str | None]:
        """The GPU record for an id or alias; a name shared by variants resolves to the default one, with a note;
        a memory size ('24GB', '48gb:864' with GB/s) is a custom card."""
        rec = self._gpu_keys.get(normalize(query))
        if rec is None and CUSTOM_GPU.fullmatch(query.strip()):
            return custom_gpu(query)
        if rec is None:
            raise UnknownItem("GPU", query, self._suggest(query, self._gpu_keys), "gpu-advisor gpus")
        stem = normalize(query)
        variants = [g.id for g in self.gpus if g is not rec and _is_prefix_of(stem, g.id)]
        if not variants and not re.search(r"\d+\s*g", query.lower()):
            # 'A100 PCIe': sold with 40 and 80 GB; no size written, so the other memory size is named beside the pick
            forms = re.findall(r"pcie|sxm|nvl|oam", stem)
            variants = [g.id for g in self.stock_versions(rec.id) if g is not rec and g.memory_gb != rec.memory_gb
                        and all(f in normalize(g.id + g.name) for f in forms)]
            if variants:
                return rec, (f"'{query}' is sold with {' and '.join(f'{g:g} GB' for g in sorted({rec.memory_gb, *(self.gpu(v)[0].memory_gb for v in variants)}))}"
                             f" ({', '.join([rec.id, *variants])}); taken as {rec.name} ({rec.id}): say the size if yours "
                             "is the other")
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
                if n >= 2 and tokens[start] in ("a", "an") and tokens[start + 1][:1].isdigit():
                    continue  # 'a 10 trillion parameter model', 'a 100 users': the article, not an A10 / A100
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


CUSTOM_GPU = re.compile(r"(?:custom-)?(\d+(?:\.\d+)?)\s*(gb|g|gib)(?:\s*[:@/]\s*(\d+(?:\.\d+)?)\s*(?:gb/?s|gbps)?"
                        r"(?:\s*[:@/]\s*(\d+(?:\.\d+)?)\s*(?:tflops)?)?)?", re.I)


# A family named alone ('DeepSeek', 'Qwen', 'Llama'): its flagship, the largest model of the family's newest
# generation in the catalog (as of the catalog's date); the answer says so and asks for the exact model to change it.
# a family member made for one purpose (code, maths, vision, long context, a distill, a reasoning variant): never the
# member a bare family name stands for, nor the next size up or down
SPECIALISED_MEMBER = re.compile(r"coder|math|vl|audio|omni|guard|distill|embed|reranker|1m|qwq")

FAMILY_FLAGSHIPS: dict[str, str] = {  # (a longer family name first: 'DeepSeek-R1-Distill' is the distills, not V3)
    "deepseek-r1-distill": "deepseek-r1-distill-llama-70b", "deepseek r1 distill": "deepseek-r1-distill-llama-70b",
    "r1-distill": "deepseek-r1-distill-llama-70b", "r1 distill": "deepseek-r1-distill-llama-70b",
    "deepseek-r1 蒸馏": "deepseek-r1-distill-llama-70b", "deepseek-r1蒸馏": "deepseek-r1-distill-llama-70b",
    "deepseek r1 蒸馏": "deepseek-r1-distill-llama-70b", "r1 蒸馏": "deepseek-r1-distill-llama-70b",
    "r1蒸馏": "deepseek-r1-distill-llama-70b", "deepseek 蒸馏": "deepseek-r1-distill-llama-70b",
    "deepseek蒸馏": "deepseek-r1-distill-llama-70b",
    "deepseek": "deepseek-v3", "qwen": "qwen3-235b-a22b", "通义千问": "qwen3-235b-a22b", "千问": "qwen3-235b-a22b",
    "llama": "llama-3.1-405b", "glm": "glm-4.6", "智谱": "glm-4.6", "kimi": "kimi-k2", "mistral": "mistral-large-2407",
    "mixtral": "mixtral-8x22b", "gemma": "gemma-3-27b", "phi": "phi-4", "gpt-oss": "gpt-oss-120b", "yi": "yi-1.5-34b",
    "internlm": "internlm2.5-20b", "书生": "internlm2.5-20b", "baichuan": "baichuan2-13b", "百川": "baichuan2-13b",
}


# A family's member that a team runs on a few cards when the flagship needs a cluster ('deepseek' on 4090s: the 32B
# distill, not the 671B), named beside the flagship's sizing.
# a family's small member teams fine-tune and run on one card (beside the middle one, when a family is named alone)
FAMILY_SMALL: dict[str, str] = {
    "deepseek-v3": "deepseek-r1-distill-qwen-7b", "qwen3-235b-a22b": "qwen3-8b", "llama-3.1-405b": "llama-3.1-8b",
    "glm-4.6": "glm-4-9b", "mistral-large-2407": "mistral-7b",
}
FAMILY_MIDDLE: dict[str, str] = {
    "deepseek-v3": "deepseek-r1-distill-qwen-32b", "qwen3-235b-a22b": "qwen3-32b", "llama-3.1-405b": "llama-3.3-70b",
    "glm-4.6": "glm-4.5-air", "kimi-k2": "qwen3-32b", "mistral-large-2407": "mistral-small-24b",
}


def custom_gpu(query: str) -> tuple[GPU, str]:
    """A card known only by its memory (and optionally bandwidth and dense BF16 TFLOPS): '24GB', '24GB:936' (GB/s),
    '24GB:936:165'."""
    m = CUSTOM_GPU.fullmatch(query.strip())
    size, unit, bw, tflops = float(m.group(1)), m.group(2).lower(), m.group(3), m.group(4)
    if not 1 <= size <= 4096:
        raise ValueError(f"--gpu {query!r}: a custom card's memory must be 1-4096 GB")
    if bw and not 1 <= float(bw) <= 100_000:
        raise ValueError(f"--gpu {query!r}: a custom card's bandwidth must be 1-100000 GB/s")
    if tflops and not 0.1 <= float(tflops) <= 100_000:
        raise ValueError(f"--gpu {query!r}: a custom card's dense BF16 TFLOPS must be 0.1-100000")
    n_bytes = int(size * (2**30 if unit == "gib" else 1e9))
    gpu = GPU(id=f"custom-{size:g}{unit}", name=f"a {size:g} {'GiB' if unit == 'gib' else 'GB'} GPU",
              vendor="custom", architecture="unknown", form_factor="unknown", memory_gb=round(n_bytes / 1e9, 3),
              memory_bytes=n_bytes, memory_type="unknown", memory_bandwidth_gbps=float(bw) if bw else None,
              bf16_dense_tflops=float(tflops) if tflops else None, supports_bf16=True,
              interconnect="unknown", source="given on the command line", source_kind="secondary", as_of="n/a")
    note = (f"{query}: a custom card with {n_bytes / 1e9:g} GB" + (f" and {float(bw):g} GB/s" if bw else
            " (no bandwidth given: speed estimates need it, e.g. --gpu 24GB:936 for 936 GB/s)")
            + (f", {float(tflops):g} dense BF16 TFLOPS" if tflops else
               "; no compute figure (speed estimates need it: --gpu 24GB:936:165 for 165 dense BF16 TFLOPS)")
            + "; BF16 assumed, no FP8/FP4 formats offered for it")
    return gpu, note


def _is_prefix_of(stem: str, gpu_id: str) -> bool:
    """True when `stem` names a leading part of `gpu_id` ('a100' of 'a100-40gb', not 'l4' of 'l40s')."""
    parts = gpu_id.split("-")
    return any(normalize("".join(parts[:k])) == stem for k in range(1, len(parts)))


def _load(path: Path, record_type):
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ~10x faster start-up
    rows = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    return [record_type(**row) for row in rows]


def user_models_file() -> Path:
    """The user's own models: GPU_ADVISOR_MODELS, else ~/.config/gpu-advisor/models.yaml."""
    import os

    return Path(os.environ.get("GPU_ADVISOR_MODELS") or Path.home() / ".config" / "gpu-advisor" / "models.yaml").expanduser()


def load_user_models(path: Path) -> tuple[list[ModelSpec], list[str]]:
    """Records from the user's models file: full catalog records, or {id, config: PATH} entries read from a
    config.json. (models, problems): an entry that cannot be read is skipped and named, never fatal."""
    from pydantic import ValidationError

    from knowledge.hf_config import ConfigError, load_config_path

    if not path.is_file():
        return [], []
    try:
        rows = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    except yaml.YAMLError as e:
        return [], [f"{path}: not valid YAML ({str(e).splitlines()[0]})"]
    if not isinstance(rows, list):
        return [], [f"{path}: expected a YAML list of models"]
    out, problems = [], []
    for i, row in enumerate(rows, 1):
        try:
            if isinstance(row, dict) and "config" in row:
                spec, _ = load_config_path(row["config"], model_id=str(row.get("id") or "").lower() or None)
                extra = {k: row[k] for k in ("name", "aliases") if k in row}
                out.append(spec.model_copy(update=extra))
            elif isinstance(row, dict):
                out.append(ModelSpec(**row))
            else:
                problems.append(f"{path} entry {i}: expected a mapping")
        except (ConfigError, ValidationError, TypeError, OSError) as e:
            problems.append(f"{path} entry {i} ({row.get('id', '?') if isinstance(row, dict) else '?'}): "
                            f"{str(e).splitlines()[0]}")
    return out, problems


def with_user_models(builtin: list[ModelSpec], user: list[ModelSpec], problems: list[str]) -> list[ModelSpec]:
    """Built-in records plus the user's; a user id or alias that a built-in record already has is skipped."""
    taken = {normalize(n) for m in builtin for n in (m.id, *m.aliases)}
    kept = []
    for m in user:
        clash = [n for n in (m.id, *m.aliases) if normalize(n) in taken]
        if clash:
            problems.append(f"user model {m.id}: the name {clash[0]!r} is already in the catalog; choose another id")
            continue
        taken |= {normalize(n) for n in (m.id, *m.aliases)}
        kept.append(m)
    return builtin + kept


# macOS lets the GPU wire about 2/3 of unified memory on machines with up to 36 GB and 3/4 above (Metal's
# recommendedMaxWorkingSetSize on macOS 13-15: 10.67 of 16, 21.33 of 32, 48 of 64, 96 of 128 GiB, measured in
# llama.cpp #1870 and PR #2011, llama-cpp-python #687, ollama #434; macOS 26 was seen higher, 107.52 of 128 GiB in
# antirez/ds4 #893). `sudo sysctl iogpu.wired_limit_mb=N` raises it; then pass --gpu NGB for what you set.
APPLE_SMALL_SHARE, APPLE_LARGE_SHARE, APPLE_SMALL_MAX_GB = 2 / 3, 3 / 4, 36


def apple_fp32_estimate(chip: AppleChip, chips: list[AppleChip]) -> tuple[float | None, str | None]:
    """An Apple chip without a published GPU FP32 figure: its GPU cores times the per-core rate of the same
    generation's chip that has one (the rate is cores x 128 lanes x 2 x clock, so within a generation it scales with
    cores), else of the newest earlier generation's; (TFLOPS, the sentence saying so), or (None, None)."""
    if chip.fp32_tflops:
        return chip.fp32_tflops, None
    gen = chip.chip.split("-")[0]  # 'm3' of 'm3-ultra-60c'
    known = [c for c in chips if c.fp32_tflops]
    same = [c for c in known if c.chip.split("-")[0] == gen]
    earlier = sorted((c for c in known if c.chip.split("-")[0] < gen), key=lambda c: (c.chip.split("-")[0], c.gpu_cores))
    ref = max(same, key=lambda c: c.gpu_cores) if same else (earlier[-1] if earlier else None)
    if ref is None:
        return None, None
    per_core = ref.fp32_tflops / ref.gpu_cores
    value = round(chip.gpu_cores * per_core, 2)
    return value, (f"GPU FP32 {value} TFLOPS is an estimate (no published figure): {chip.gpu_cores} GPU cores x "
                   f"{per_core:.3f} TFLOPS per core, the rate of {ref.chip} ({ref.fp32_tflops} TFLOPS / {ref.gpu_cores} "
                   f"cores){'' if ref in same else ', an earlier generation: the real clock may be higher'}.")


def apple_gpus(chips: list[AppleChip]) -> list[GPU]:
    """One GPU record per Apple chip variant and memory option: m4-max-128gb, m2-ultra-192gb, ..."""
    out = []
    for c in chips:
        fp32, estimated = apple_fp32_estimate(c, chips)
        for mem in c.memory_options_gb:
            share = APPLE_SMALL_SHARE if mem <= APPLE_SMALL_MAX_GB else APPLE_LARGE_SHARE
            out.append(GPU(
                id=f"{c.chip}-{mem}gb", name=f"{c.name}, {mem} GB", aliases=[f"{c.chip} {mem}gb", f"{c.chip}{mem}"],
                vendor="Apple", architecture=c.name.split(" (")[0], form_factor="SoC with unified memory",
                memory_gb=mem, memory_bytes=mem * 2**30, memory_type="unified LPDDR (shared with the CPU)",
                memory_bandwidth_gbps=c.memory_bandwidth_gbps, fp32_tflops=fp32,
                fp16_dense_tflops=fp32, bf16_dense_tflops=fp32 if c.bf16 else None,
                supports_bf16=c.bf16, interconnect="none (one SoC; Thunderbolt between machines)",
                usable_share=share, release_year=c.release_year, source=c.source,
                source_kind="vendor" if "apple.com" in c.source else "secondary", as_of=c.as_of,
                notes=(f"macOS lets the GPU wire about {share:.0%} of unified memory by default (Metal "
                       "recommendedMaxWorkingSetSize, macOS 13-15; newer macOS may allow more); `sudo sysctl "
                       "iogpu.wired_limit_mb=N` raises it, then pass --gpu NGB. FP16 runs at the FP32 rate (no "
                       "tensor cores)." + (f" {estimated}" if estimated else "") + (f" {c.notes}" if c.notes else ""))))
    return out


@functools.lru_cache(maxsize=1)
def phones() -> list[Phone]:
    """Phone chips and classes (knowledge/data/phones.yaml): bandwidth and the memory one app can use."""
    return _load(DATA_DIR / "phones.yaml", Phone)


def phone_gpu_id(text: str, ram_gb: float) -> tuple[str, Phone, str] | None:
    """'骁龙 8 Gen 3 … 12GB', 'a mid-range Android phone with 8GB': the device as a custom card id (the app's share of
    the memory, the chip's bandwidth, the runtime's prefill rate), the record it came from and the name matched; a
    named chip or phone first, then a class; None when no phone is named."""
    low = text.lower()
    pairs = sorted(((a, rec) for rec in phones() for a in rec.aliases), key=lambda ar: -len(ar[0]))
    for alias, rec in pairs:  # the longest name written wins: a chip before 'flagship android' before 'android'
        if re.search(r"(?<![a-z0-9])" + re.escape(alias) + r"(?![a-z0-9])", low):
            usable = round(ram_gb * rec.app_memory_share, 1)
            return f"{usable:g}GB:{rec.memory_bandwidth_gbps:g}:{rec.prefill_tflops:g}", rec, alias
    return None


@functools.lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The catalog built from knowledge/data/*.yaml plus the user's models file (loaded once per process)."""
    user, problems = load_user_models(user_models_file())
    models = with_user_models(_load(DATA_DIR / "models.yaml", ModelSpec), user, problems)
    gpus = _load(DATA_DIR / "gpus.yaml", GPU) + apple_gpus(_load(DATA_DIR / "apple.yaml", AppleChip))
    catalog = Catalog(models, gpus)
    catalog.problems = problems
    return catalog


def model_name(name: str) -> str:
    """A card's model name without vendor, brand line, memory, form factor or notes: 'NVIDIA A100 80GB SXM4' -> 'A100',
    'NVIDIA GeForce RTX 4090 D' -> 'RTX 4090 D', 'NVIDIA HGX H20 96GB' -> 'H20', 'Huawei Ascend 910B (...)' -> '910B'."""
    import re

    s = re.split(r"\s\d+\s*GB\b|\sSXM|\sPCIe|\sNVL\b|\sOAM|\s\(|,", name, maxsplit=1)[0]
    s = re.sub(r"^(?:NVIDIA|AMD|Huawei|Apple|Intel)\s+|\b(?:GeForce|HGX|DGX|Instinct|Ascend)\s+", "", s)
    s = re.sub(r"\s+V\d+$", "", s)  # ('RTX 5090 D V2': a revision of the RTX 5090 D, the same model)
    return s.strip().upper()
