"""Measure serving figures on a real GPU with random-weight models built from the catalog's configs (no download).

Run on the device machine (torch + transformers there; no project imports, so no pydantic needed):
    python3 evals/device/h200_serving_measure.py --out $OUT/h200_serving.json
For each model: weights memory (torch.cuda.memory_allocated after building in bf16), then for each batch a
prefill of PROMPT random tokens (logits for the last position only) and DECODE eager decode steps with
the Hugging Face DynamicCache; prefill seconds, mean decode-step seconds, peak allocated/reserved. Then the
same decode step replayed from a CUDA graph with a StaticCache (no launch overhead: the bandwidth-bound
step an engine with CUDA graphs sees). Results go to the calibration data with these exact conditions.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch
import yaml

MODELS = ("llama-3.1-8b", "qwen2.5-14b")
BATCHES = (1, 8, 32, 64)
PROMPT = 2048
DECODE = 32
GIB = 1024 ** 3


def config_for(spec: dict):
    from transformers import LlamaConfig, Qwen2Config

    common = dict(hidden_size=spec["hidden_size"], intermediate_size=spec["intermediate_size"],
                  num_hidden_layers=spec["num_layers"], num_attention_heads=spec["num_attention_heads"],
                  num_key_value_heads=spec["num_kv_heads"], vocab_size=spec["vocab_size"],
                  max_position_embeddings=max(spec.get("max_context", 32768), 8192),
                  tie_word_embeddings=spec.get("tie_embeddings", False), torch_dtype="bfloat16")
    if spec["id"].startswith("qwen"):
        return Qwen2Config(**common)
    return LlamaConfig(head_dim=spec.get("head_dim", 128), **common)


def sync_time(fn):
    torch.cuda.synchronize()
    t = time.perf_counter()
    out = fn()
    torch.cuda.synchronize()
    return out, time.perf_counter() - t


def measure_model(spec: dict, log) -> dict:
    from transformers import AutoModelForCausalLM, DynamicCache, StaticCache

    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    cfg = config_for(spec)
    cfg._attn_implementation = "sdpa"
    t0 = time.perf_counter()
    with torch.device("cuda"):
        model = AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.bfloat16)
    model.eval()
    torch.cuda.synchronize()
    res = {"model": spec["id"], "params": sum(p.numel() for p in model.parameters()),
           "weights_gib": (torch.cuda.memory_allocated() - base) / GIB, "build_s": time.perf_counter() - t0, "runs": []}
    log(f"{spec['id']}: {res['params'] / 1e9:.2f}e9 params, {res['weights_gib']:.2f} GiB in {res['build_s']:.0f} s")
    for b in BATCHES:
        row = {"batch": b, "prompt": PROMPT, "decode_steps": DECODE}
        try:
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()
            ids = torch.randint(0, spec["vocab_size"], (b, PROMPT), device="cuda")
            with torch.inference_mode():
                cache = DynamicCache()
                out, pre = sync_time(lambda: model(input_ids=ids, past_key_values=cache, use_cache=True, logits_to_keep=1))
                nxt = out.logits[:, -1:].argmax(-1)
                steps = []
                for _ in range(DECODE):
                    o, dt = sync_time(lambda: model(input_ids=nxt, past_key_values=cache, use_cache=True))
                    nxt = o.logits[:, -1:].argmax(-1)
                    steps.append(dt)
            row.update(prefill_s=pre, decode_step_s_mean=sum(steps[2:]) / len(steps[2:]),
                       peak_allocated_gib=torch.cuda.max_memory_allocated() / GIB,
                       peak_reserved_gib=torch.cuda.max_memory_reserved() / GIB)
            del cache, out, o
        except Exception as e:  # record, go on
            row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
        res["runs"].append(row)
        log(f"  eager b={b}: {row}")
    for b in BATCHES:  # CUDA-graph decode step with a static cache
        row = {"batch": b, "context": PROMPT, "mode": "cuda_graph_static_cache"}
        try:
            torch.cuda.empty_cache()
            with torch.inference_mode():
                cache = StaticCache(config=cfg, max_batch_size=b, max_cache_len=PROMPT + 64, device="cuda",
                                    dtype=torch.bfloat16) if _static_takes_batch() else \
                    StaticCache(config=cfg, max_cache_len=PROMPT + 64)
                tok = torch.zeros((b, 1), dtype=torch.long, device="cuda")
                pos = torch.tensor([PROMPT], device="cuda")
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    for _ in range(3):
                        model(input_ids=tok, past_key_values=cache, cache_position=pos, use_cache=True)
                torch.cuda.current_stream().wait_stream(s)
                g = torch.cuda.CUDAGraph()
                with torch.cuda.graph(g):
                    model(input_ids=tok, past_key_values=cache, cache_position=pos, use_cache=True)
                g.replay()
                torch.cuda.synchronize()
                n = 20
                _, dt = sync_time(lambda: [g.replay() for _ in range(n)])
            row["decode_step_s"] = dt / n
            del g, cache
        except Exception as e:
            row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
        res["runs"].append(row)
        log(f"  graph b={b}: {row}")
    del model
    torch.cuda.empty_cache()
    return res


def _static_takes_batch() -> bool:
    import inspect

    from transformers import StaticCache
    return "max_batch_size" in inspect.signature(StaticCache.__init__).parameters


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--models", default=",".join(MODELS))
    args = p.parse_args()
    specs = {m["id"]: m for m in yaml.safe_load(Path("knowledge/data/models.yaml").read_text())}
    import transformers
    env = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "transformers": transformers.__version__,
           "total_gib": torch.cuda.get_device_properties(0).total_memory / GIB,
           "date": time.strftime("%Y-%m-%d")}
    out = {"env": env, "models": []}

    def log(msg):
        print(msg, flush=True)
    log(json.dumps(env))
    for mid in args.models.split(","):
        try:
            out["models"].append(measure_model(specs[mid], log))
        except Exception as e:
            out["models"].append({"model": mid, "error": f"{type(e).__name__}: {str(e)[:300]}"})
        Path(args.out).write_text(json.dumps(out, indent=1))
    Path(args.out).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
