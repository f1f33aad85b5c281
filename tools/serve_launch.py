"""The engine's launch line for one replica of a serving plan (vLLM, SGLang, llama.cpp, transformers)."""
from __future__ import annotations

from tools.formats import weight_format
from tools.serve_request import Layout, ServeRequest


def launch_command(req: ServeRequest, lay: Layout, kv: str) -> str:
    """The engine's launch line for one replica."""
    spec, eng = req.model, req.eng
    repo = spec.hf_repo or spec.id
    ctx = max(req.prompt_len + req.output_len, req.max_model_len or 0)
    seqs = max(1, lay.max_concurrent_sequences)
    quant = req.precision and req.precision != spec.native_precision
    frac = req.memory_fraction or eng.memory_fraction
    tail = f"   # x {lay.replicas} replicas behind a load balancer" if (lay.replicas or 1) > 1 else ""
    if eng.launch:  # the paged-KV servers (vLLM, SGLang): their flags from the engine table
        parts = [eng.launch.format(repo=repo), f"{eng.tp_flag} {lay.tp}"]
        if lay.pp > 1:
            parts.append(f"{eng.pp_flag} {lay.pp}")
        parts += [f"{eng.context_flag} {ctx}", f"{eng.fraction_flag} {frac:g}", f"{eng.max_num_seqs_flag} {seqs}"]
        if kv == "fp8":
            parts.append(f"--kv-cache-dtype {eng.kv_fp8}")
        if quant and req.precision == "fp8":
            parts.append("--quantization fp8")
        if eng.id == "vllm":
            parts += _vllm_extras(req)
            if quant and req.precision in ("awq", "gptq", "int4", "int8"):
                kind = " (GPTQ-Int8 or W8A8)" if req.precision == "int8" else ""
                parts[0] = f"vllm serve <an {req.precision.upper()} checkpoint of {repo}{kind}>"
        return " ".join(parts) + tail + _runtime_note(req.gpu.vendor, eng.id, bool(tail))
    if eng.id == "llama.cpp":
        fmt = req.fmt if weight_format(req.fmt).family == "gguf" else "q4_k_m"
        return (f"llama-server -m {spec.id}-{fmt.upper()}.gguf -c {ctx * seqs} --parallel {seqs} -ngl 999"
                + (f" --split-mode layer   # over {lay.pp} GPUs" if lay.pp > 1 else "") + tail)
    dev = "device_map='auto'" if lay.pp > 1 else "device_map='cuda'"
    return (f"python -c \"from transformers import AutoModelForCausalLM; m = AutoModelForCausalLM.from_pretrained("
            f"'{repo}', {dev}, torch_dtype='auto')\"  # then m.generate() on batches of up to {seqs}" + tail)


def _vllm_extras(req: ServeRequest) -> list[str]:
    """vLLM's flags for multi-LoRA slots and speculative decoding."""
    out = []
    if req.max_loras:
        out.append(f"--enable-lora --max-loras {req.max_loras} --max-lora-rank {req.max_lora_rank}")
    if req.speculative:
        method = {"draft": f'"model": "{req.draft_model.hf_repo or req.draft_model.id}"' if req.draft_model else "",
                  "eagle": '"method": "eagle3", "model": "<EAGLE head repo>"', "mtp": '"method": "mtp"'}[req.speculative]
        tokens = req.mtp_layers if req.speculative == "mtp" else 3
        out.append(f"--speculative-config '{{{method}, \"num_speculative_tokens\": {tokens}}}'")
    return out


# The build a non-NVIDIA card runs the same launch line with (the flags are the engine's own)
_RUNTIMES = {"Huawei": "on Ascend NPUs: vLLM with the vllm-ascend plugin (same flags), or Huawei's MindIE server",
             "AMD": "on Instinct GPUs: the ROCm build of {engine}"}


def _runtime_note(vendor: str, engine: str, has_comment: bool) -> str:
    """'# on Ascend NPUs: ...' after a launch line for a card CUDA builds do not run on."""
    note = _RUNTIMES.get(vendor)
    if not note:
        return ""
    return ("; " if has_comment else "   # ") + note.format(engine={"vllm": "vLLM", "sglang": "SGLang"}.get(engine, engine))
