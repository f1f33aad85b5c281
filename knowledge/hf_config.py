"""A model from its Hugging Face `config.json` (a file, or a folder holding one): any model, no catalog entry.

Fields are read under the names the transformers config classes use (Llama, Mistral, Qwen2/3, Qwen3-MoE,
Qwen3-Next, Gemma 2/3, DeepSeek-V2/V3, Kimi K2, GLM-4/4.5, gpt-oss, Llama 4, Mixtral, Phi-3/4, InternLM...;
a `text_config` is read for multimodal checkpoints, whose vision tower is then not counted). The parameter
count is computed from the architecture; with a `model.safetensors.index.json` beside the config, the
checkpoint's own byte total is compared against it. `quantization_config` (or `hf_quant_config.json`) names the
checkpoint's weight format, which becomes its native precision.
"""
from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from knowledge.schemas import MLA, LinearAttention, ModelSpec, MoE, SlidingWindow

MAX_CONFIG_BYTES = 2_000_000
# model types whose config omits tie_word_embeddings but whose checkpoints tie them
_TIED_BY_DEFAULT = {"gemma", "gemma2", "gemma3", "gemma3_text", "qwen2"}
_QKV_BIAS = {"qwen2", "qwen2_moe", "qwen2_vl", "qwen2_5_vl"}
_QK_NORM = {"qwen3", "qwen3_moe", "qwen3_next", "gemma3", "gemma3_text", "olmo2", "olmoe"}
_FOUR_NORMS = {"gemma2", "gemma3", "gemma3_text", "glm4"}
_PLAIN_MLP = {"gpt2", "opt", "gpt_neox", "falcon", "phi", "starcoder2", "bloom", "gpt_bigcode"}


class ConfigError(ValueError):
    """A config.json that cannot describe a decoder-only language model; says which field is missing."""


def looks_like_path(text: str) -> bool:
    """True for what a person passes as a file or folder (./x, /x, ~/x, x/config.json) rather than a name."""
    t = text.strip()
    if t.startswith(("./", "../", "/", "~")) or t.endswith(".json"):
        return True
    try:
        return Path(t).expanduser().is_dir()
    except (OSError, ValueError):  # a name longer than a path may be, or with a NUL in it: not a folder
        return False


def find_config(path: str | Path) -> Path:
    """The config.json a path names: the file itself, or config.json inside a folder."""
    p = Path(path).expanduser()
    if p.is_dir():
        p = p / "config.json"
    if not p.is_file():
        raise ConfigError(f"{path}: no config.json there (pass a config.json file or a folder holding one)")
    if p.suffix != ".json":
        raise ConfigError(f"{path}: not a .json file (pass a config.json file or a folder holding one)")
    if p.stat().st_size > MAX_CONFIG_BYTES:
        raise ConfigError(f"{p}: {p.stat().st_size:,} bytes is too large for a config.json")
    return p


def _get(cfg: dict, *names, default=None):
    for n in names:
        if cfg.get(n) is not None:
            return cfg[n]
    return default


def native_format(cfg: dict, folder: Path | None = None) -> tuple[str, str | None]:
    """(format id, how it was read) from quantization_config / hf_quant_config.json / torch_dtype."""
    q = cfg.get("quantization_config") or {}
    if not q and folder is not None and (folder / "hf_quant_config.json").is_file():
        q = json.loads((folder / "hf_quant_config.json").read_text(encoding="utf-8")).get("quantization", {})
    method = str(q.get("quant_method") or q.get("quant_algo") or "").lower()
    bits = q.get("bits") or q.get("w_bit") or q.get("num_bits")
    if method == "fp8" or method == "fbgemm_fp8":
        return "fp8", f"quantization_config quant_method {method}"
    if method == "mxfp4":
        return "mxfp4", "quantization_config quant_method mxfp4"
    if method in ("nvfp4", "modelopt") or "nvfp4" in method:
        return ("nvfp4", f"quantization {method}") if "fp8" not in method else ("fp8", f"quantization {method}")
    if method in ("awq", "gptq", "gptqmodel", "auto-round"):
        fmt = "int8" if bits == 8 else ("awq" if method == "awq" else "gptq")
        return fmt, f"quantization_config quant_method {method}, {bits or 4} bits, group {q.get('group_size', q.get('q_group_size', 128))}"
    if method == "bitsandbytes":
        return ("nf4" if q.get("load_in_4bit") else "int8"), "quantization_config bitsandbytes"
    if method == "compressed-tensors":
        fmt_name = str(q.get("format", "")).lower()
        if "nvfp4" in fmt_name:
            return "nvfp4", f"compressed-tensors format {fmt_name}"
        for group in (q.get("config_groups") or {}).values():
            w = (group or {}).get("weights") or {}
            if w.get("num_bits") == 8 and w.get("type") == "float":
                return "fp8", "compressed-tensors 8-bit float weights"
            if w.get("num_bits") == 4 and w.get("type") == "float":
                return "nvfp4", "compressed-tensors 4-bit float weights"
            if w.get("num_bits") == 4:
                return "int4", "compressed-tensors 4-bit int weights (W4A16)"
            if w.get("num_bits") == 8:
                return "int8", "compressed-tensors 8-bit int weights"
    if method:
        raise ConfigError(f"quantization_config quant_method {method!r} is not a format gpu-advisor knows; "
                          "pass --precision with one of its formats")
    dtype = str(cfg.get("torch_dtype") or cfg.get("dtype") or "bfloat16")
    return {"float16": "fp16", "float32": "fp32"}.get(dtype, "bf16"), None


def _moe(cfg: dict, model_type: str, num_layers: int) -> MoE | None:
    experts = _get(cfg, "n_routed_experts", "num_local_experts", "num_experts", "moe_num_experts")
    if not experts or experts <= 1:
        return None
    per_token = _get(cfg, "num_experts_per_tok", "moe_top_k", "num_experts_per_token", "experts_per_token")
    if per_token is None:
        raise ConfigError("an MoE config without num_experts_per_tok")
    width = _get(cfg, "moe_intermediate_size", "expert_intermediate_size")
    if width is None or model_type in ("mixtral", "gpt_oss", "llama4_text", "llama4"):
        width = cfg["intermediate_size"]
    shared = int(_get(cfg, "n_shared_experts", "num_shared_experts", default=0) or 0)
    shared_width = cfg.get("shared_expert_intermediate_size")
    if shared_width and not shared:
        shared = 1
    if model_type in ("llama4_text", "llama4"):
        shared, shared_width = 1, cfg["intermediate_size"]
    step = int(_get(cfg, "interleave_moe_layer_step", "decoder_sparse_step", default=1) or 1)
    first_dense = int(_get(cfg, "first_k_dense_replace", default=0) or 0)
    return MoE(routed_experts=experts, shared_experts=shared, experts_per_token=per_token,
               expert_intermediate_size=width, shared_expert_intermediate_size=shared_width,
               first_dense_layers=first_dense, layer_step=step,
               router_bias=cfg.get("topk_method") == "noaux_tc" or model_type == "gpt_oss",
               expert_bias=model_type == "gpt_oss", shared_expert_gate=model_type in ("qwen2_moe", "qwen3_next"))


def _layer_kinds(cfg: dict, model_type: str, num_layers: int) -> dict[str, int]:
    """How many layers of each attention kind: full, sliding, chunked, linear."""
    types = cfg.get("layer_types")
    if isinstance(types, list) and types:
        out = {"full": 0, "sliding": 0, "chunked": 0, "linear": 0}
        for t in types:
            t = str(t)
            out["sliding" if "sliding" in t else "chunked" if "chunk" in t else "linear" if "linear" in t else "full"] += 1
        return out
    window = cfg.get("sliding_window")
    if model_type == "qwen3_next":
        every = int(cfg.get("full_attention_interval", 4))
        full = num_layers // every
        return {"full": full, "sliding": 0, "chunked": 0, "linear": num_layers - full}
    if model_type in ("llama4_text", "llama4") and cfg.get("attention_chunk_size"):
        nope = cfg.get("no_rope_layers")
        chunked = sum(1 for x in nope if x) if isinstance(nope, list) and nope else \
            num_layers - num_layers // int(cfg.get("nope_layer_interval", 4))
        return {"full": num_layers - chunked, "sliding": 0, "chunked": chunked, "linear": 0}
    longest = _get(cfg, "max_position_embeddings", default=None)
    if window and longest and window >= longest:
        window = None  # a window as long as the context changes nothing (Phi-4's config says 16384 of 16384)
    if window and cfg.get("use_sliding_window", True) is not False:
        pattern = cfg.get("sliding_window_pattern")
        if model_type == "gemma2":
            sliding = num_layers // 2 + num_layers % 2
        elif pattern:
            sliding = num_layers - num_layers // int(pattern)
        else:
            sliding = num_layers
        return {"full": num_layers - sliding, "sliding": sliding, "chunked": 0, "linear": 0}
    return {"full": num_layers, "sliding": 0, "chunked": 0, "linear": 0}


def spec_from_config(cfg: dict, *, model_id: str, source: str, folder: Path | None = None,
                     as_of: str | None = None) -> tuple[ModelSpec, list[str]]:
    """A ModelSpec from a config.json dict (parameters computed), and notes on how it was read."""
    from tools.params import count_parameters

    notes: list[str] = []
    top_type = str(cfg.get("model_type", ""))
    if isinstance(cfg.get("text_config"), dict):
        cfg = {**cfg["text_config"], "quantization_config": cfg.get("quantization_config"),
               "torch_dtype": cfg.get("torch_dtype") or cfg["text_config"].get("torch_dtype")}
        notes.append(f"{top_type}: the text model's config (text_config) was read; the vision tower is not counted")
    model_type = str(cfg.get("model_type", top_type))
    try:
        L = int(_get(cfg, "num_hidden_layers", "n_layer", "num_layers"))
        h = int(_get(cfg, "hidden_size", "n_embd", "d_model"))
        heads = int(_get(cfg, "num_attention_heads", "n_head"))
        vocab = int(_get(cfg, "vocab_size", "padded_vocab_size"))
    except (TypeError, ValueError):
        raise ConfigError("config.json lacks num_hidden_layers, hidden_size, num_attention_heads or vocab_size: "
                          "is it a decoder-only language model's config?") from None
    kv = int(_get(cfg, "num_key_value_heads", "multi_query_group_num", "num_kv_heads", default=heads))
    head_dim = int(_get(cfg, "head_dim", default=h // heads))
    inter = _get(cfg, "intermediate_size_mlp", "intermediate_size", "ffn_hidden_size", "n_inner")
    if model_type in ("llama4_text", "llama4"):
        inter = _get(cfg, "intermediate_size_mlp", "intermediate_size")
    inter = int(inter or 4 * h)
    mla = None
    if cfg.get("kv_lora_rank"):
        mla = MLA(kv_lora_rank=cfg["kv_lora_rank"], q_lora_rank=cfg.get("q_lora_rank"),
                  qk_rope_head_dim=cfg["qk_rope_head_dim"], qk_nope_head_dim=cfg["qk_nope_head_dim"],
                  v_head_dim=cfg["v_head_dim"])
        head_dim = cfg["qk_rope_head_dim"] + cfg["qk_nope_head_dim"]
        kv = heads
    moe = _moe(cfg, model_type, L)
    kinds = _layer_kinds(cfg, model_type, L)
    window = None
    if kinds["sliding"] or kinds["chunked"]:
        size = int(cfg.get("attention_chunk_size") if kinds["chunked"] else cfg["sliding_window"])
        window = SlidingWindow(window=size, layers=kinds["sliding"] or kinds["chunked"],
                               kind="chunked" if kinds["chunked"] else "sliding")
    linear = None
    if kinds["linear"]:
        linear = LinearAttention(layers=kinds["linear"], num_key_heads=cfg["linear_num_key_heads"],
                                 num_value_heads=cfg["linear_num_value_heads"], key_head_dim=cfg["linear_key_head_dim"],
                                 value_head_dim=cfg["linear_value_head_dim"], conv_kernel=cfg["linear_conv_kernel_dim"])
    tied = cfg.get("tie_word_embeddings")
    if tied is None:
        tied = model_type in _TIED_BY_DEFAULT
        notes.append(f"tie_word_embeddings absent: taken as {tied} (the {model_type or 'transformers'} default)")
    fmt, how = native_format(cfg, folder)
    if how:
        notes.append(f"checkpoint format {fmt} ({how})")
    attention = "mla" if mla else "mha" if kv == heads else "mqa" if kv == 1 else "gqa"
    fields = dict(
        id=model_id, name=cfg.get("_name_or_path") or model_id, family=model_type or "unknown", params_total=1,
        params_active=1 if moe else None, num_layers=L, hidden_size=h, num_attention_heads=heads, num_kv_heads=kv,
        head_dim=head_dim, intermediate_size=inter, vocab_size=vocab, tie_embeddings=bool(tied),
        max_context=int(_get(cfg, "max_position_embeddings", "seq_length", "max_sequence_length", "n_positions",
                             default=4096)),
        attention=attention, mlp="plain" if model_type in _PLAIN_MLP else "gated",
        qkv_bias=bool(cfg.get("attention_bias", model_type in _QKV_BIAS)),
        o_bias=bool(cfg.get("attention_bias")) and model_type == "gpt_oss",
        qk_norm=bool(cfg.get("use_qk_norm", model_type in _QK_NORM)),
        norms_per_layer=4 if model_type in _FOUR_NORMS else 2,
        attn_output_gate=model_type == "qwen3_next", attention_sinks=model_type == "gpt_oss",
        mla=mla, moe=moe, sliding_window=window, linear_attention=linear, native_precision=fmt,
        source=source, as_of=as_of or date.today().isoformat())
    provisional = ModelSpec(**fields)
    counts = count_parameters(provisional)
    spec = provisional.model_copy(update={"params_total": counts.total,
                                          "params_active": counts.active if moe else None,
                                          "notes": "; ".join(notes) or None})
    return spec, notes


def load_config_path(path: str | Path, model_id: str | None = None) -> tuple[ModelSpec, list[str]]:
    """A ModelSpec from a config.json file or folder; with model.safetensors.index.json beside it, the
    computed weight bytes are checked against the checkpoint's own total (a note says how far off)."""
    cfg_path = find_config(path)
    try:
        cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ConfigError(f"{cfg_path}: not valid JSON ({e})") from None
    if not isinstance(cfg, dict):
        raise ConfigError(f"{cfg_path}: a config.json holds one JSON object")
    folder = cfg_path.parent
    name = model_id or (folder.name if cfg_path.name == "config.json" else cfg_path.stem).lower()
    spec, notes = spec_from_config(cfg, model_id=name, source=f"config.json at {cfg_path}", folder=folder)
    index = folder / "model.safetensors.index.json"
    if index.is_file():
        notes.append(checkpoint_check(spec, json.loads(index.read_text(encoding="utf-8"))))
        spec = spec.model_copy(update={"notes": "; ".join(notes)})
    return spec, notes


def checkpoint_check(spec: ModelSpec, index: dict) -> str:
    """Compare the computed weight bytes (in the checkpoint's format) with the safetensors index total_size."""
    from tools.memory import weight_bytes
    from tools.params import count_parameters

    total = (index.get("metadata") or {}).get("total_size")
    if not total:
        return "model.safetensors.index.json has no metadata.total_size: weight bytes not checked"
    ours = sum(weight_bytes(count_parameters(spec), spec.native_precision, double_quant=False))
    off = ours / float(total) - 1
    verdict = "agrees" if abs(off) <= 0.01 else "DIFFERS"
    return (f"checkpoint total_size {int(total):,} B; computed {ours:,.0f} B in {spec.native_precision} "
            f"({off:+.2%}: {verdict})")
