"""The assumptions a serving plan states: load, lengths, targets, formats, engine memory, speed model, layout, cost."""
from __future__ import annotations

from tools import efficiency as eff
from tools import serve_bands
from tools.formats import weight_format
from tools.serve_load import LoadPoint, Replica
from tools.serve_request import HEADROOM, Layout, ServeRequest


def plan_assumptions(req: ServeRequest, lay: Layout, c: Replica, p: LoadPoint, kv: str, price_source: str | None) -> list[str]:
    eng = req.eng
    out = []
    if req.users is not None:
        out.append(f"{req.users:,} concurrent users = {req.users:,} requests in flight (each sends the next as soon as "
                   "the last finishes; with think time between requests, fewer are in flight)")
    else:
        out.append(f"{req.qps:g} requests/s arriving evenly (Poisson); p50-style steady-state figures, no bursts")
    out.append(f"each request: {req.prompt_len:,} prompt + {req.output_len:,} output tokens"
               + ("" if "prompt_len" in req.model_fields_set else " (default lengths; --prompt-len / --output-len)"))
    b = serve_bands.BANDS[serve_bands.kind_of(req.model)]
    if req.targets_stated:
        stated = ", ".join(x for x in (f"TTFT <= {req.ttft_s:g} s" if req.ttft_s is not None else "",
                                       f"ITL <= {req.itl_ms:g} ms" if req.itl_ms is not None else "") if x)
        out.append(f"targets you stated: {stated}, checked at the slow end of each figure's band "
                   f"(TTFT x{max(1, b['ttft_s'][1]):g}, ITL x{max(1, b['itl_ms'][1]):g}: the p90 of published "
                   f"{'MoE' if req.model.moe else 'dense-model'} measurements the model was not fit to)")
    else:
        out.append("no latency target stated, so none is imposed: each replica takes "
                   + ("as many users as its KV pool runs at once" if req.users is not None else
                      f"up to {HEADROOM:.0%} of the request rate that saturates it")
                   + "; the TTFT and ITL given are what that load gets")
    if lay.tp * lay.pp > 1 and (req.tp is not None or req.pp is not None):
        out.append(f"layout pinned by you: TP{lay.tp}" + (f" x PP{lay.pp}" if lay.pp > 1 else ""))
    if not p.converged:
        out.append("the load/latency iteration did not settle at this load: the figures are its last step, not a steady "
                   "state; read them as rough")
    if req.correction:
        fix = req.correction
        out.append(f"corrected by your benchmark ({fix.source}, {fix.as_of}, TP{fix.deployment.tp}): decode steps "
                   f"x{fix.itl_factor:.2f} and prefill x{fix.ttft_factor:.2f}, measured / estimated")
    fmt = weight_format(req.fmt)
    out.append(f"weights in {fmt.name}" + (" (the checkpoint's own)" if req.precision is None else "")
               + f", KV cache in {kv}" + ("" if req.kv_dtype else " (default)"))
    if eng.preallocates and eng.memory_fraction is not None:
        frac = req.memory_fraction or eng.memory_fraction
        out.append(f"{eng.name}: {eng.fraction_flag} {frac:g}; the KV pool after weights, a profiled forward of "
                   f"{eng.max_batched_tokens:,} tokens and CUDA graphs holds {lay.kv_pool_tokens or 0:,} tokens = "
                   f"{c.cap.sequences:,} sequences of {req.prompt_len + req.output_len:,}"
                   + (f", capped at the engine's {eng.max_num_seqs_flag} {eng.max_num_seqs}" if eng.max_num_seqs and
                      c.cap.sequences > lay.max_concurrent_sequences and not req.max_num_seqs else "")
               + (f", capped at your {eng.max_num_seqs_flag} {req.max_num_seqs}" if req.max_num_seqs else ""))
    elif eng.id == "llama.cpp":
        out.append(f"llama.cpp: --parallel {lay.max_concurrent_sequences} slots of {req.prompt_len + req.output_len:,} "
                   "tokens allocated at start (-c = slots x context); layers split over GPUs, one stage at a time")
    else:
        out.append("transformers generate(): static batches (no continuous batching): a request waits for the running "
                   "batch; layers split over GPUs with device_map='auto', one at a time")
    out.append(f"past {lay.max_concurrent_sequences:,} running sequences per replica: {eng.past_the_pool}")
    out.append(f"prefill compute-bound at {eff.PREFILL_COMPUTE_EFFICIENCY:.0%} of dense peak ({c.prefill_s * 1000:.0f} ms "
               f"per prompt on TP{lay.tp}); decode reads weights + KV at {eff.DECODE_BANDWIDTH_EFFICIENCY:.0%} of "
               f"{req.gpu.memory_bandwidth_gbps:g} GB/s; prefill takes {p.prefill_share:.0%} of GPU time and stretches "
               "decode steps by that share (chunked prefill, no overlap credit)")
    if lay.tp > 1:
        fabric = req.gpu.scale_up_fabric(lay.tp)
        link = fabric or ("PCIe (past the card's bridged pair: every all-reduce is slower)" if req.gpu.nvlink_gbps
                          else "PCIe (no NVLink: every all-reduce is slower)")
        out.append(f"TP{lay.tp} within one node over {link}: two all-reduces per layer per step")
    if lay.pp > 1:
        out.append(f"PP{lay.pp} across nodes: a stream's decode speed is one replica-stage's, throughput rises with "
                   f"{lay.pp} micro-batches in flight" if c.pipelined else
                   f"layers split over {lay.pp} GPUs for memory; they run one after another")
    if req.model.moe is not None:
        out.append("MoE: each decode step reads the experts the running batch routes to; compute uses active parameters")
    if req.speculative:
        out.append(f"speculative decoding ({req.speculative}): its weights and KV cache are counted in memory; its "
                   "speed-up depends on the acceptance rate and is not modelled (ITL as without it)")
    if req.max_loras:
        out.append(f"{req.max_loras} LoRA slot(s) at rank {req.max_lora_rank} allocated at start (vLLM --max-loras "
                   f"{req.max_loras} --max-lora-rank {req.max_lora_rank}); adapters beyond them wait in the CPU cache")
    if req.prefix_cache_hit:
        out.append(f"{req.prefix_cache_hit:.0%} of prompt tokens served from the prefix cache (not prefilled)")
    if price_source:
        out.append(f"cost: {price_source}; input/output split by GPU time (prefill share {p.prefill_share:.0%})")
    else:
        out.append(f"no price for {req.gpu.id} in the table: give --price (USD per GPU-hour) for $/1M tokens")
    return out
