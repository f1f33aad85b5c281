"""Spec figures quoted in a message (a vendor's sheet, a purchase order) checked against the GPU table: a memory
bandwidth no card has, or a card's TFLOPS that are really its sparse or 8-bit figure. Each finding is a sentence the
answer shows; the figure is never used in place of the table's."""
from __future__ import annotations

import re

from knowledge.catalog import Catalog

_BW = re.compile(r"(?<![\d.])(\d[\d,]*(?:\.\d+)?)\s*(gb/s|gbps|tb/s)(?![a-z])")
_FLOPS = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(p|t)\s*flops|(\d+(?:\.\d+)?)\s*(pflops|tflops)")


def _fastest(catalog: Catalog) -> tuple[float, str]:
    g = max((g for g in catalog.gpus if g.memory_bandwidth_gbps), key=lambda g: g.memory_bandwidth_gbps)
    return g.memory_bandwidth_gbps, g.name


def spec_claims(low: str, catalog: Catalog, gpu_ids: list[str], zh: bool) -> list[str]:
    """Sentences on quoted figures that cannot be right, for the cards named (`gpu_ids`) or any card."""
    return [text for text, _ in spec_findings(low, catalog, gpu_ids, zh)]


DENSE_FORMATS = ("FP8 dense", "INT8 dense", "FP4 dense")  # a figure that matches one of these is right for its format


def spec_findings(low: str, catalog: Catalog, gpu_ids: list[str], zh: bool) -> list[tuple[str, bool]]:
    """(sentence, whether it corrects the message) for each quoted figure spec_claims speaks of: a figure beyond any
    card, or not the card's own, corrects it; a card's right figure for another format (its FP8 dense TFLOPS) only
    says which figure the estimate uses."""
    out: list[tuple[str, bool]] = []
    top, top_name = _fastest(catalog)
    for m in _BW.finditer(low):
        v = float(m.group(1).replace(",", "")) * (1000 if m.group(2) == "tb/s" else 1)
        around = low[max(0, m.start() - 60):m.end() + 40]
        near = low[max(0, m.start() - 3):m.end() + 25]  # ('384GB VRAM total, 48,000 GB/s per card': the total is another)
        if v > 1.5 * top and re.search(r"memory|bandwidth|显存|带宽|hbm|gddr|per card|每卡|单卡", around) and \
                not re.search(r"total|aggregate|combined|合计|总共|总带宽|nvlink|infiniband|network|网络", near):
            out.append((f"声称的 {v:,.0f} GB/s 显存带宽是任何单卡都没有的：最快的 {top_name} 约 {top:,.0f} GB/s（约 {v / top:.0f} 倍的差距）；"
                        "这个数字没有采用" if zh else
                        f"the quoted {v:,.0f} GB/s of memory bandwidth is beyond any card: the fastest, {top_name}, has "
                        f"{top:,.0f} GB/s ({v / top:.0f}x less); the figure is not used", True))
    def owner(at: int) -> str | None:  # the card named last before a figure: whose figure it is
        best = None
        for gid in gpu_ids:
            try:
                names = {catalog.gpu(gid)[0].id, *catalog.gpu(gid)[0].aliases}
            except LookupError:
                continue
            for name in names:
                i = low.rfind(name.lower(), 0, at)
                if i >= 0 and (best is None or i > best[0]):
                    best = (i, gid)
        return best[1] if best else None

    for gid in gpu_ids:
        try:
            g = catalog.gpu(gid)[0]
        except LookupError:
            continue
        for m in _FLOPS.finditer(low):
            if len(gpu_ids) > 1 and owner(m.start()) not in (None, gid):
                continue  # ('H20 FP8 296 TFLOPS, RTX 4090 FP8 660 TFLOPS': each figure is its own card's)
            num, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4)[0])
            tf = float(num) * (1000 if unit == "p" else 1)
            dense = g.fp16_dense_tflops or g.bf16_dense_tflops
            if not dense or tf <= 1.3 * dense:
                continue
            names = {("FP8 dense", "FP8 稠密"): g.fp8_dense_tflops,
                     ("FP8 with sparsity", "FP8 稀疏"): g.fp8_dense_tflops and 2 * g.fp8_dense_tflops,
                     ("FP16 with sparsity", "FP16 稀疏"): 2 * dense, ("INT8 dense", "INT8 稠密"): g.int8_dense_tops,
                     ("INT8 (or FP8 with FP16 accumulate) with sparsity", "INT8（或 FP16 累加的 FP8）稀疏"):
                         g.int8_dense_tops and 2 * g.int8_dense_tops,
                     ("FP4 dense", "FP4 稠密"): g.fp4_dense_tflops,
                     ("FP4 with sparsity", "FP4 稀疏"): g.fp4_dense_tflops and 2 * g.fp4_dense_tflops}
            key = next((k for k, x in names.items() if x and abs(x - tf) <= 0.1 * x), None)
            match = key and key[1 if zh else 0]
            out.append(((f"{g.name} 的 FP16/BF16 稠密算力是 {dense:g} TFLOPS；声称的 {tf:,.0f} TFLOPS"
                         + (f"是它的 {match} 数字" if match else " 远超它") + "，按稠密 FP16 估算预填充") if zh else
                        (f"{g.name}'s dense FP16/BF16 is {dense:g} TFLOPS; the quoted {tf:,.0f} TFLOPS "
                         + (f"is its {match} figure" if match else "is far above it") + "; prefill is estimated on the "
                         "dense figure"), not (key and key[0] in DENSE_FORMATS)))
            break
    return out


_MEMORY_CLAIM = re.compile(r"(?:has|have|comes? with|with|ships with|packs|有|带|是)\s*(?:a\s+|an\s+)?(\d{2,4})\s*(?:gb|g)(?![a-z/])"
                           r"\s*(?:of\s*)?(?:hbm\w*|memory|vram|显存|的显存|gddr\w*)|"
                           r"(?:comes? with|ships with|显存(?:是|有)?)\s*(?:a\s+|an\s+)?(\d{2,4})\s*(?:gb|g)(?![a-z/])"
                           r"(?!\s*(?:of\s*)?(?:ram|system|ddr|内存|硬盘|ssd|disk))")


def memory_claims(low: str, catalog: Catalog, gpu_ids: list[str], zh: bool) -> list[str]:
    """'the H100 has 192GB HBM': a memory size the named card comes in no variant of, said with the cards that have it;
    the table's figure is used."""
    out: list[str] = []
    for m in _MEMORY_CLAIM.finditer(low):
        gb = float(m.group(1) or m.group(2))
        for gid in gpu_ids:
            try:
                g = catalog.gpu(gid)[0]
            except LookupError:
                continue
            variants = catalog.stock_versions(gid)  # (a third-party memory mod is no version of the card)
            if any(abs((x.memory_gb or 0) - gb) <= 0.04 * gb for x in variants):
                continue
            sizes = sorted({round(x.memory_gb) for x in variants if x.memory_gb})
            have = [x.name for x in catalog.gpus if x.memory_gb and abs(x.memory_gb - gb) <= 0.04 * gb][:3]
            out.append((f"{g.name} 没有 {gb:g} GB 的版本（它的显存：{' / '.join(f'{s} GB' for s in sizes)}）"
                        + (f"；{gb:g} GB 的是 {'、'.join(have)}" if have else "") + "；按表里的显存计算") if zh else
                       (f"the {g.name} comes with no {gb:g} GB (its memory: {' / '.join(f'{s} GB' for s in sizes)})"
                        + (f"; {gb:g} GB is {', '.join(have)}" if have else "") + "; the table's figure is used"))
            break
    return out


_CLAIM_CUE = re.compile(r"销售|厂商|代理|供应商|宣传|号称|声称|据说|说|称|" r"(?<![a-z])(?:sales\w*|vendor|reseller|rep|claims?|claimed|"
                        r"says?|said|told|according to|marketing|pitch\w*)(?![a-z])")
_COMPARES = re.compile(r"比\s*\S{0,12}?(?:快|高|强|好)|(?:差不多|一样|相当|持平|不相上下|没区别)|"
                       r"(?<![a-z])(?:faster|quicker|better|higher|beats?|outperforms?|as (?:fast|good) as|same as|on par|"
                       r"comparable|matches|equivalent)(?![a-z])")


def comparative_claims(low: str, catalog: Catalog, gpu_ids: list[str], zh: bool) -> list[str]:
    """'The sales rep says the H20 is faster than the H100 for inference (4.0 vs 3.35 TB/s) and about the same for
    training': a claim that one named card matches or beats another is checked figure by figure, saying which work
    each figure governs (decode at low concurrency: memory bandwidth; prefill, high concurrency and training: dense
    compute in the same format)."""
    if len(set(gpu_ids)) < 2 or not _CLAIM_CUE.search(low) or not _COMPARES.search(low):
        return []
    try:
        a, b = (catalog.gpu(g)[0] for g in list(dict.fromkeys(gpu_ids))[:2])
    except LookupError:
        return []
    if not (a.memory_bandwidth_gbps and b.memory_bandwidth_gbps and a.bf16_dense_tflops and b.bf16_dense_tflops):
        return []
    bw = a.memory_bandwidth_gbps / b.memory_bandwidth_gbps
    cf = b.bf16_dense_tflops / a.bf16_dense_tflops
    fp8 = (f"，FP8 {a.fp8_dense_tflops:g} vs {b.fp8_dense_tflops:g}" if zh else
           f", FP8 {a.fp8_dense_tflops:g} vs {b.fp8_dense_tflops:g}") if a.fp8_dense_tflops and b.fp8_dense_tflops else ""
    faster, slower = (a, b) if bw >= 1 else (b, a)
    if zh:
        return [f"{a.name} 对 {b.name}：显存带宽 {a.memory_bandwidth_gbps:,.0f} vs {b.memory_bandwidth_gbps:,.0f} GB/s（{faster.name} "
                f"高 {abs(bw - 1) if bw >= 1 else abs(1 / bw - 1):.0%}：单路、低并发的解码它略快，这一点成立）；稠密算力 BF16 "
                f"{a.bf16_dense_tflops:g} vs {b.bf16_dense_tflops:g} TFLOPS{fp8}（{(b if cf >= 1 else a).name} 是 "
                f"{max(cf, 1 / cf):.1f} 倍）：预填充（首 token）、高并发解码和训练都受算力限制，这些场景 {(b if cf >= 1 else a).name} "
                f"快数倍；比较算力要用同一种精度（一张卡的 FP8 对另一张的 BF16 不能比）"]
    return [f"{a.name} against {b.name}: memory bandwidth {a.memory_bandwidth_gbps:,.0f} vs {b.memory_bandwidth_gbps:,.0f} "
            f"GB/s ({faster.name} {abs(bw - 1) if bw >= 1 else abs(1 / bw - 1):.0%} higher: it decodes slightly faster at one "
            f"or a few streams, that part holds); dense compute BF16 {a.bf16_dense_tflops:g} vs {b.bf16_dense_tflops:g} "
            f"TFLOPS{fp8} ({(b if cf >= 1 else a).name} {max(cf, 1 / cf):.1f}×): prefill (time to first token), decoding "
            f"at high concurrency and training are bound by compute, and there {(b if cf >= 1 else a).name} is several times "
            "faster; compare compute in one format (one card's FP8 against another's BF16 is no comparison)"]


def param_count_claims(low: str, catalog, model_ids: list[str], zh: bool) -> list[str]:
    """'Mixtral 8x7B, so 56B params': a parameter count stated for a named model that is off by more than 10% from its
    config (Mixtral 8x7B has 46.7B: its experts share the attention layers), said before the answer, which uses the
    config's count."""
    if len(set(model_ids)) != 1:
        return []
    m = re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*b\s*(?:params?|parameters?|参数|的参数)", low)
    if not m:
        return []
    try:
        spec = catalog.model(model_ids[0])[0]
    except (LookupError, ValueError):
        return []
    from tools.params import count_parameters

    true = count_parameters(spec).total / 1e9
    said = float(m.group(1))
    if abs(said - true) / true <= 0.10:
        return []
    return [f"{spec.name} 的参数量是 {true:,.1f}B，不是 {said:g}B（按配置文件逐层计算；MoE 的专家共用注意力层，不能用“专家数 × 单个大小”算）；"
            "下面按 {true:,.1f}B 计算".replace("{true:,.1f}", f"{true:,.1f}") if zh else
            f"{spec.name} has {true:,.1f}B parameters, not {said:g}B (counted layer by layer from its config; an MoE's "
            f"experts share the attention layers, so 'experts × size' overcounts); the sizes below use {true:,.1f}B"]


def moe_active_memory_claims(low: str, catalog, model_ids: list[str], zh: bool) -> list[str]:
    """'30B-A3B 只激活 3B，应该比 8B 还省显存吧': an MoE's memory is set by all its experts (every one stays loaded); the
    active parameters set the compute per token, so its speed, not its memory. Said before the answer."""
    if not re.search(r"激活|(?<![a-z])activ\w*|(?<![a-z])a\d+(?:\.\d+)?b(?![a-z])", low) or not re.search(
            r"显存|内存|省|(?<![a-z])(?:vram|memory|ram|less|smaller|lighter|fit\w*)(?![a-z])", low):
        return []
    if not re.search(r"(?:只|仅|就|才|only|just)\s*(?:激活|activ\w*)|(?:激活|activ\w*)[^。？?.]{0,12}(?:所以|应该|so|should|means|less|省|少)",
                     low):
        return []
    out = []
    from tools.params import count_parameters

    for mid in dict.fromkeys(model_ids):
        try:
            spec = catalog.model(mid)[0]
        except (LookupError, ValueError):
            continue
        if spec.moe is None:
            continue
        c = count_parameters(spec)
        total, active = c.total / 1e9, c.active / 1e9
        out.append(f"{spec.name} 每个 token 只用 {active:,.1f}B 参数，但显存要装下全部 {total:,.1f}B（所有专家都常驻显存，路由每个 token "
                   f"时随时要用）：BF16 权重约 {total * 2:,.0f} GB、4 位约 {total * 0.56:,.0f} GB。激活参数少决定的是速度（每个 token 读的"
                   "权重少），不是显存" if zh else
                   f"{spec.name} uses {active:,.1f}B parameters per token, but memory must hold all {total:,.1f}B (every "
                   f"expert stays loaded, since any token may route to it): about {total * 2:,.0f} GB of BF16 weights, "
                   f"~{total * 0.56:,.0f} GB in 4-bit. The few active parameters make it fast (each token reads less), "
                   "not small")
    return out
