"""The layout search: which replica shape (TP within a node, PP over nodes, or a layer split for engines without
TP) and how many replicas carry a load within the targets, and the same load on other cards.

The planner tries TP 1, 2, 4, 8 (powers of two up to the node) and, where one node is not enough, PP over
whole nodes; per layout the most load a replica carries within the targets, then replicas = load /
that; the layout with the fewest GPUs wins (ties: more, smaller replicas).
"""
from __future__ import annotations

import math

from pydantic import ValidationError

from knowledge.schemas import GPU
from tools import efficiency as eff
from tools.formats import kv_default
from tools.infer_memory import tp_ok
from tools.memory import weight_bytes
from tools.params import count_parameters
from tools.serve_assumptions import plan_assumptions
from tools.serve_cost import per_million, price_per_gpu_hour
from tools.serve_launch import launch_command
from tools.serve_load import Replica, load_point
from tools import serve_bands
from tools.serve_request import (DEFAULT_ITL_MS, DEFAULT_TTFT_S, HEADROOM, MAX_HOST_LAYERS, MAX_STAGES, TP_DEGREES, Layout,
                                 LoadPoint, ServeOption, ServePlan, ServeRequest, ServeTargetError)
from tools.units import GB


def _meets(p: LoadPoint, req: ServeRequest) -> bool:
    """Whether a load point meets the stated targets at the safe (slow) end of the figures' bands."""
    kind = _kind(req)
    return (p.saturated is None and serve_bands.safe("ttft_s", p.ttft_s, kind) <= req.ttft_target
            and serve_bands.safe("itl_ms", p.itl_ms, kind) / 1000 <= req.itl_target_s)


def _kind(req: ServeRequest) -> str:
    return serve_bands.kind_of(req.model)


def _capacity(c: Replica, req: ServeRequest) -> float:
    """Most users (integer) or requests/s one replica carries within the targets (0 if even one does not).
    Users (a closed loop) past the KV pool only queue, so the pool bounds them. Requests/s (an open loop) are held
    to HEADROOM of the rate that saturates the replica, at the slow end of the throughput band: a queue near
    saturation grows without bound at the first burst."""
    if req.users is not None:
        if not _meets(load_point(c, users=1), req):
            return 0.0
        lo, hi = 1, max(1, c.max_seqs)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if _meets(load_point(c, users=mid), req) else (lo, mid - 1)
        return float(lo)
    lanes = c.pp if c.pipelined else 1
    top = 0.98 * lanes / c.prefill_s if c.prefill_s else 1e6
    lo, hi = 0.0, top
    if not _meets(load_point(c, rate=hi * 1e-6), req):
        return 0.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _meets(load_point(c, rate=mid), req) else (lo, mid)
    sat_lo, sat_hi = 0.0, top
    for _ in range(50):  # the rate at which the replica saturates (queue or KV pool), targets aside
        mid = (sat_lo + sat_hi) / 2
        sat_lo, sat_hi = (mid, sat_hi) if load_point(c, rate=mid).saturated is None else (sat_lo, mid)
    return min(lo, HEADROOM * serve_bands.safe("tokens_per_s_per_gpu", sat_lo, _kind(req)))


def _shapes(req: ServeRequest) -> list[tuple[int, int, bool]]:
    """(tp, pp, pipelined) to try: TP powers of two within a node; PP over whole nodes; layer splits for engines
    without TP (hf device_map='auto', llama.cpp --split-mode layer), which run one stage at a time. A pinned --tp /
    --pp leaves only the layouts that have them."""
    spec = req.model
    if req.engine in ("hf", "llama.cpp"):
        if req.tp not in (None, 1):
            raise ValueError(f"{req.engine} has no tensor parallelism: it splits layers over GPUs (--pp N), so --tp "
                             f"{req.tp} cannot be pinned; use --engine vllm or sglang for TP")
        out = [(1, n, False) for n in range(1, min(MAX_HOST_LAYERS, spec.num_layers) + 1)]
        return [s for s in out if req.pp is None or s[1] == req.pp] or [(1, req.pp, False)]
    if req.tp is not None or req.pp is not None:
        if req.tp is not None and req.tp > req.gpus_per_node:
            raise ValueError(f"--tp {req.tp} is wider than a node of {req.gpus_per_node} GPUs: tensor parallelism "
                             "stays within a node; use --pp for stages across nodes (or --gpus-per-node)")
        if req.tp is not None and not tp_ok(spec, req.tp):
            raise ValueError(f"--tp {req.tp} does not divide {spec.id}'s {spec.num_attention_heads} attention heads: "
                             "TP must divide the head count (try a power of two)")
        tps = [req.tp] if req.tp is not None else [t for t in TP_DEGREES if t <= req.gpus_per_node and tp_ok(spec, t)]
        pp = req.pp or 1
        if pp > spec.num_layers:
            raise ValueError(f"--pp {pp} is more stages than {spec.id}'s {spec.num_layers} layers")
        return [(t, pp, pp > 1) for t in tps]
    tps = [t for t in TP_DEGREES if t <= req.gpus_per_node and tp_ok(spec, t)]
    out = [(t, 1, False) for t in tps]
    if tps and tps[-1] == req.gpus_per_node:
        out += [(tps[-1], s, True) for s in range(2, MAX_STAGES + 1) if s <= spec.num_layers]
    return out


def _layout_row(c: Replica, req: ServeRequest) -> Layout:
    one = load_point(c, users=1)
    row = Layout(tp=c.tp, pp=c.pp, gpus=c.tp * c.pp, max_concurrent_sequences=c.max_seqs,
                 kv_pool_tokens=c.cap.kv_pool_tokens, per_gpu_gb=c.cap.per_gpu_gb,
                 single_stream_itl_ms=round(one.itl_ms, 2), unloaded_ttft_s=round(one.ttft_s, 4), capacity=0.0)
    if c.max_seqs < 1:
        row.why_not = (f"the weights and overheads leave no room for one sequence of "
                       f"{req.prompt_len + req.output_len:,} tokens ({c.cap.per_gpu_gb:g} GB per GPU)")
        return row
    if serve_bands.safe("itl_ms", one.itl_ms, _kind(req)) / 1000 > req.itl_target_s:
        row.why_not = f"one stream alone decodes at {one.itl_ms:.1f} ms per token (target {req.itl_target_s * 1000:g} ms)"
        return row
    if serve_bands.safe("ttft_s", one.ttft_s, _kind(req)) > req.ttft_target:
        row.why_not = f"one {req.prompt_len:,}-token prompt alone takes {one.ttft_s:.2f} s to prefill (target {req.ttft_target:g} s)"
        return row
    row.capacity = _capacity(c, req)
    load = req.users if req.users is not None else req.qps
    row.replicas = max(1, math.ceil(load / row.capacity - 1e-9)) if row.capacity else None
    row.total_gpus = row.replicas * row.gpus if row.replicas else None
    return row


def plan_serving(req: ServeRequest) -> ServePlan:
    """The smallest layout (fewest GPUs) that serves the load within the targets, with its figures and cost.
    Raises ServeTargetError when no layout meets a target even unloaded, ValueError when the model never fits."""
    rows: list[tuple[Layout, Replica]] = []
    for tp, pp, pipelined in _shapes(req):
        c = Replica(req, tp, pp, pipelined)
        rows.append((_layout_row(c, req), c))
        if pp > 1 and c.max_seqs >= 1 and rows[-1][0].total_gpus:
            break  # deeper pipelines only add GPUs once one fits and serves
    ok = [(r, c) for r, c in rows if r.total_gpus and r.total_gpus <= req.max_gpus]
    if not ok:
        _raise_why(req, rows)
    best, c = min(ok, key=lambda rc: (rc[0].total_gpus, rc[0].gpus, rc[0].single_stream_itl_ms))
    load = req.users if req.users is not None else req.qps
    per = load / best.replicas
    point = load_point(c, users=per) if req.users is not None else load_point(c, rate=per)
    rate_total = point.requests_per_s * best.replicas
    out_tps = rate_total * req.output_len
    in_tps = rate_total * req.prompt_len
    price, source = price_per_gpu_hour(req)
    per_hour = price * best.total_gpus if price else None
    kv = req.kv_dtype or kv_default(req.fmt)
    return ServePlan(
        model=req.model.id, gpu=req.gpu.id, engine=req.engine, precision=req.fmt, kv_dtype=kv,
        load={"users": req.users, "qps": req.qps, "prompt_len": req.prompt_len, "output_len": req.output_len,
              "per_replica": round(per, 4), "running_per_replica": point.running, "queued_per_replica": point.queued},
        targets={k: v for k, v in (("ttft_s", req.ttft_s), ("itl_ms", req.itl_ms)) if v is not None},
        meets_targets=_meets(point, req) if req.targets_stated else None,
        with_default_targets=_with_default_targets(req, best.total_gpus), layout_pinned=req.tp is not None or req.pp is not None,
        converged=point.converged, bands=serve_bands.bands_for(point.ttft_s, point.itl_ms, out_tps / best.total_gpus, _kind(req)),
        total_gpus=best.total_gpus, tp=best.tp, pp=best.pp, replicas=best.replicas,
        max_concurrent_sequences=best.max_concurrent_sequences, kv_pool_tokens=best.kv_pool_tokens,
        per_gpu_gb=best.per_gpu_gb, breakdown_gb=c.cap.breakdown_gb, ttft_s=round(point.ttft_s, 3), itl_ms=round(point.itl_ms, 2),
        tokens_per_s_per_user=round(1000 / point.itl_ms, 1), tokens_per_s_per_gpu=round(out_tps / best.total_gpus, 1),
        output_tokens_per_s=round(out_tps, 1), prefill_share=round(point.prefill_share, 4),
        saturation={"users" if req.users is not None else "requests_per_s": round(best.capacity, 3)},
        launch_command=launch_command(req, best, kv),
        price_per_gpu_hour=price, price_source=source, cost_per_hour_usd=round(per_hour, 2) if per_hour else None,
        cost_per_million_input_tokens_usd=per_million(per_hour, point.prefill_share, in_tps),
        cost_per_million_output_tokens_usd=per_million(per_hour, 1 - point.prefill_share, out_tps),
        layouts=[r for r, _ in rows], assumptions=plan_assumptions(req, best, c, point, kv, source),
    )


def _with_default_targets(req: ServeRequest, gpus: int) -> dict | None:
    """Where no target was stated: what TTFT <= 2 s and ITL <= 50 ms would take (the same layout search), so the
    answer can say what a latency target costs without imposing one."""
    if req.targets_stated:
        return None
    try:
        tight = plan_serving(req.model_copy(update={"ttft_s": DEFAULT_TTFT_S, "itl_ms": DEFAULT_ITL_MS}))
    except ValueError as e:
        return {"ttft_s": DEFAULT_TTFT_S, "itl_ms": DEFAULT_ITL_MS, "total_gpus": None, "why_not": str(e).split(": try")[0],
                "bound": getattr(e, "bound", None)}
    return {"ttft_s": DEFAULT_TTFT_S, "itl_ms": DEFAULT_ITL_MS, "total_gpus": tight.total_gpus, "tp": tight.tp,
            "pp": tight.pp, "replicas": tight.replicas, "ttft_s_achieved": tight.ttft_s, "itl_ms_achieved": tight.itl_ms,
            "same_as_plan": tight.total_gpus == gpus}


def _verb(estimate: float, target: float, gpu: str) -> str:
    """'is below what X allows' when even the estimate misses; 'cannot be promised on X' when only the band's slow
    end does (published runs of this kind were that much slower than the estimate)."""
    return f"is below what {gpu} allows" if estimate > target else f"cannot be promised on {gpu}"


def _slow_end(metric: str, value: float, unit: str, kind: str) -> str:
    return f"up to {serve_bands.safe(metric, value, kind):.{1 if unit == 'ms' else 2}f} {unit} at the slow end of its band"


def _raise_why(req: ServeRequest, rows: list[tuple[Layout, Replica]]) -> None:
    fits = [(r, c) for r, c in rows if c.max_seqs >= 1]
    if not fits:
        raise ValueError(f"{req.model.id} with {req.prompt_len + req.output_len:,}-token sequences fits no layout of "
                         f"{req.gpu.id} up to {max(r.gpus for r, _ in rows)} GPUs per replica ({req.engine}, "
                         f"{req.fmt}): try a smaller format (--precision), fp8 KV (--kv-dtype fp8) or a larger card")
    best_itl = min(fits, key=lambda rc: (rc[0].single_stream_itl_ms, rc[0].gpus))[0]
    if serve_bands.safe("itl_ms", best_itl.single_stream_itl_ms, _kind(req)) / 1000 > req.itl_target_s:
        spec = req.model
        w = sum(weight_bytes(count_parameters(spec), req.fmt)) / GB
        raise ServeTargetError(
            f"ITL target {req.itl_target_s * 1000:g} ms "
            f"{_verb(best_itl.single_stream_itl_ms / 1000, req.itl_target_s, req.gpu.id)}: even one stream on "
            f"TP{best_itl.tp}{f' x PP{best_itl.pp}' if best_itl.pp > 1 else ''} decodes at "
            f"{best_itl.single_stream_itl_ms:.1f} ms per token "
            f"({_slow_end('itl_ms', best_itl.single_stream_itl_ms, 'ms', _kind(req))}; each token reads {w:.1f} GB of weights over "
            f"{best_itl.tp} x {req.gpu.memory_bandwidth_gbps:g} GB/s at {eff.DECODE_BANDWIDTH_EFFICIENCY:.0%}, plus "
            "per-layer overheads); a smaller format, a faster card or speculative decoding is needed",
            {"bound": "itl", "best_itl_ms": best_itl.single_stream_itl_ms, "tp": best_itl.tp, "pp": best_itl.pp})
    best_ttft = min(fits, key=lambda rc: (rc[0].unloaded_ttft_s, rc[0].gpus))[0]
    if serve_bands.safe("ttft_s", best_ttft.unloaded_ttft_s, _kind(req)) > req.ttft_target:
        raise ServeTargetError(
            f"TTFT target {req.ttft_target:g} s {_verb(best_ttft.unloaded_ttft_s, req.ttft_target, req.gpu.id)}: "
            f"a {req.prompt_len:,}-token prompt takes {best_ttft.unloaded_ttft_s:.2f} s to prefill even alone on "
            f"TP{best_ttft.tp} ({_slow_end('ttft_s', best_ttft.unloaded_ttft_s, 's', _kind(req))})",
            {"bound": "ttft", "best_ttft_s": best_ttft.unloaded_ttft_s, "tp": best_ttft.tp, "pp": best_ttft.pp})
    raise ValueError(f"serving the load needs more than {req.max_gpus} {req.gpu.id}")


def serving_options(req: ServeRequest, gpus: list[GPU]) -> list[ServeOption]:
    """The same load and targets on each GPU type, ranked: cheapest per hour first where priced (your --price applies
    to the GPU you asked about only), then by GPU count; GPUs that cannot serve it last, with why."""
    out: list[ServeOption] = []
    for g in gpus:
        try:
            alt = ServeRequest(**{**dict(req), "gpu": g,  # validated again: a card without figures is refused
                                  "price_per_gpu_hour": req.price_per_gpu_hour if g.id == req.gpu.id else None})
            p = plan_serving(alt)
        except ValidationError as e:  # the card's own check (no bandwidth or compute figures), in its words
            out.append(ServeOption(gpu=g.id, total_gpus=None, why_not=e.errors()[0]["msg"].removeprefix("Value error, ")))
            continue
        except ValueError as e:
            out.append(ServeOption(gpu=g.id, total_gpus=None, why_not=str(e).split(": try")[0].split(" (")[0]))
            continue
        out.append(ServeOption(gpu=g.id, total_gpus=p.total_gpus, tp=p.tp, pp=p.pp, replicas=p.replicas, ttft_s=p.ttft_s,
                               itl_ms=p.itl_ms, tokens_per_s_per_gpu=p.tokens_per_s_per_gpu,
                               cost_per_hour_usd=p.cost_per_hour_usd,
                               cost_per_million_output_tokens_usd=p.cost_per_million_output_tokens_usd))
    ok = sorted((o for o in out if o.total_gpus), key=lambda o: (o.cost_per_hour_usd is None, o.cost_per_hour_usd or 0,
                                                                 o.total_gpus))
    for n, o in enumerate(ok, 1):
        o.rank = n
    return ok + [o for o in out if not o.total_gpus]
