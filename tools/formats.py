"""Weight formats: what each checkpoint format stores per weight, and which weights it stores that way.

The one place that knows a format's bits per weight. Bits include the format's own block scales and zero
points; `scale_bits` says how many of them are scales (shown apart in a breakdown). `scope` says which weights
are held in the format, the rest staying 16-bit:
- all: every weight (16-bit checkpoints; GGUF files, whose published bits per weight are averages over the
  whole file, token embedding and output included, norms aside);
- linear: the matrices inside the transformer layers (AWQ, GPTQ, bitsandbytes, FP8, NVFP4 checkpoints keep the
  embedding, LM head, norms and routers in 16-bit);
- experts: the MoE expert matrices only (gpt-oss ships MXFP4 experts and BF16 attention, embeddings and router);
  on a dense model such a format applies to the layer matrices.
"""
from __future__ import annotations

import re

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict

LLAMA_CPP_QUANTIZE = ("llama.cpp tools/quantize/README.md, bits per weight of whole Llama 2 7B files (13B and 70B "
                      "within 0.1 bit); https://github.com/ggml-org/llama.cpp/blob/master/tools/quantize/README.md")
GGML_BLOCKS = "ggml-common.h block structs (block_q8_0 34 B / 32 weights, block_q4_0 18 B / 32, block_q6_K 210 B / 256)"


class WeightFormat(BaseModel):
    """One checkpoint weight format."""

    model_config = ConfigDict(frozen=True)
    id: str
    name: str
    family: Literal["float", "int", "fp4", "gguf"]
    bits: float  # stored bits per weight held in this format, block scales included
    scale_bits: float = 0.0  # of `bits`, the scales / zero points
    scope: Literal["all", "linear", "experts"]
    needs: Literal["bf16", "fp16", "fp8", "fp4", "any"] = "any"  # tensor-core support for native compute
    engines: str
    source: str
    vllm: str = ""  # whether and how vLLM serves it (VLLM_SOURCE): 'yes …', 'slow …', 'experimental …'


    @property
    def bytes(self) -> float:
        return self.bits / 8


def _f(id_, name, family, bits, scope, engines, source, scale_bits=0.0, needs="any") -> WeightFormat:
    return WeightFormat(id=id_, name=name, family=family, bits=bits, scale_bits=scale_bits, scope=scope, needs=needs,
                        engines=engines, source=source)


# Best (most faithful) first within each family; PRECISION_LADDER below orders them across families.
FORMATS: dict[str, WeightFormat] = {f.id: f for f in [
    _f("fp32", "FP32", "float", 32, "all", "any", "IEEE 754 single precision"),
    _f("bf16", "BF16", "float", 16, "all", "any", "bfloat16", needs="bf16"),
    _f("fp16", "FP16", "float", 16, "all", "any", "IEEE 754 half precision", needs="fp16"),
    _f("fp8", "FP8 (E4M3, 128x128 block scales)", "float", 8 + 32 / (128 * 128), "linear", "vLLM, SGLang, TensorRT-LLM",
       "DeepSeek-V3 config.json quantization_config weight_block_size [128, 128], one fp32 scale per block",
       scale_bits=32 / (128 * 128), needs="fp8"),
    _f("int8", "INT8 (bitsandbytes LLM.int8 / W8A16)", "int", 8, "linear", "transformers + bitsandbytes, vLLM",
       "Dettmers et al. 2022 (arXiv 2208.07339): int8 rows with one scale per row (negligible)"),
    _f("awq", "AWQ 4-bit (group 128)", "int", 4 + (16 + 4) / 128, "linear", "vLLM, SGLang, transformers (autoawq)",
       "AWQ (arXiv 2306.00978) checkpoints: q_group_size 128, an fp16 scale and a 4-bit zero point per group",
       scale_bits=(16 + 4) / 128),
    _f("gptq", "GPTQ 4-bit (group 128)", "int", 4 + (16 + 4) / 128, "linear", "vLLM (Marlin), transformers (gptqmodel)",
       "GPTQ (arXiv 2210.17323) checkpoints: group_size 128, fp16 scales, zero points packed 8 per int32",
       scale_bits=(16 + 4) / 128),
    _f("int4", "INT4 (AWQ/GPTQ, group 128)", "int", 4 + (16 + 4) / 128, "linear", "vLLM, SGLang, transformers",
       "as awq / gptq: group 128, fp16 scale + 4-bit zero per group", scale_bits=(16 + 4) / 128),
    _f("nf4", "NF4 (bitsandbytes 4-bit, 64-value blocks)", "int", 4 + 32 / 64, "linear", "transformers + bitsandbytes",
       "QLoRA (arXiv 2305.14314) section 3: one fp32 absmax per 64 values (no double quantization)",
       scale_bits=32 / 64),
    _f("mxfp4", "MXFP4 (E2M1, E8M0 scale per 32)", "fp4", 4 + 8 / 32, "experts", "vLLM, SGLang, transformers (triton "
       "kernels), llama.cpp", "OCP Microscaling Formats (MX) v1.0 spec: 32-value blocks with an 8-bit E8M0 scale; "
       "gpt-oss model card: MoE weights in MXFP4 (runs weight-only on Hopper and older: vLLM/triton kernels)",
       scale_bits=8 / 32),
    _f("nvfp4", "NVFP4 (E2M1, FP8 scale per 16)", "fp4", 4 + 8 / 16, "linear", "TensorRT-LLM, vLLM, SGLang (Blackwell)",
       "NVIDIA, 'Introducing NVFP4' (2025): 16-value blocks with an FP8 E4M3 scale, plus one FP32 scale per tensor",
       scale_bits=8 / 16, needs="fp4"),
    _f("q8_0", "GGUF Q8_0", "gguf", 8.5, "all", "llama.cpp, Ollama, LM Studio", GGML_BLOCKS, scale_bits=0.5),
    _f("q6_k", "GGUF Q6_K", "gguf", 6.56, "all", "llama.cpp, Ollama, LM Studio", LLAMA_CPP_QUANTIZE),
    _f("q5_k_m", "GGUF Q5_K_M", "gguf", 5.68, "all", "llama.cpp, Ollama, LM Studio", LLAMA_CPP_QUANTIZE),
    _f("q4_k_m", "GGUF Q4_K_M", "gguf", 4.84, "all", "llama.cpp, Ollama, LM Studio", LLAMA_CPP_QUANTIZE),
    _f("q4_0", "GGUF Q4_0", "gguf", 4.5, "all", "llama.cpp, Ollama, LM Studio", GGML_BLOCKS, scale_bits=0.5),
    _f("iq4_xs", "GGUF IQ4_XS", "gguf", 4.25, "all", "llama.cpp", "llama-quantize --help: IQ4_XS 4.25 bpw"),
    _f("q3_k_m", "GGUF Q3_K_M", "gguf", 3.91, "all", "llama.cpp, Ollama, LM Studio", LLAMA_CPP_QUANTIZE),
    _f("iq3_xxs", "GGUF IQ3_XXS", "gguf", 3.06, "all", "llama.cpp", "llama-quantize --help: IQ3_XXS 3.06 bpw"),
    _f("q2_k", "GGUF Q2_K", "gguf", 3.35, "all", "llama.cpp, Ollama, LM Studio", LLAMA_CPP_QUANTIZE),
    _f("iq2_xxs", "GGUF IQ2_XXS", "gguf", 2.06, "all", "llama.cpp", "llama-quantize --help: IQ2_XXS 2.06 bpw"),
]}
VLLM_SOURCE = ("vLLM docs, features/quantization (gguf: 'highly experimental and under-optimized', single-file, now the "
               "vllm-gguf-plugin; bnb: in-flight and pre-quantized bitsandbytes checkpoints; supported_hardware: FP8 "
               "W8A8 on Ada/Hopper/Blackwell, FP8 Marlin weight-only on Ampere), as of 2026-12")
_VLLM = {
    "fp32": "yes (cast to 16-bit at load)",
    "bf16": "yes", "fp16": "yes",
    "fp8": "yes: native FP8 on Ada, Hopper and Blackwell (L4, L40S, RTX 40/50, H100/H200/H20, B200); weight-only "
           "(FP8 Marlin) on Ampere such as the A100",
    "int8": "yes: W8A8 INT8 checkpoints (llm-compressor); bitsandbytes 8-bit loads but runs slowly",
    "awq": "yes (Marlin kernels on Ampere and newer)", "gptq": "yes (Marlin kernels on Ampere and newer)",
    "int4": "yes (AWQ/GPTQ checkpoints, Marlin kernels)",
    "nf4": "slow: bitsandbytes 4-bit loads (in-flight or pre-quantized) but decodes far slower than AWQ/GPTQ; it is "
           "the QLoRA training format",
    "mxfp4": "yes (gpt-oss checkpoints)", "nvfp4": "yes on Blackwell (B200, RTX 50)",
}
for _id, _f_ in list(FORMATS.items()):
    note = _VLLM.get(_id) or ("experimental: GGUF in vLLM is under-optimized, single-file only, via the "
                              "vllm-gguf-plugin; serve GGUF with llama.cpp or Ollama" if _f_.family == "gguf" else "")
    FORMATS[_id] = _f_.model_copy(update={"vllm": note})
WEIGHT_FORMATS = tuple(k for k in FORMATS if k != "fp32")

# What each format keeps of the 16-bit model's accuracy on published evaluations (average over many tasks; the loss
# is larger on small models and shows first in maths, code, long-context retrieval and less-represented languages).
QUALITY_SOURCE = ("Kurtic et al. 2024, 'Give Me BF16 or Give Me Death? Accuracy-Performance Trade-Offs in LLM Quantization' "
                  "(arXiv 2411.02355; Llama 3.1 8B/70B/405B, >500k evaluations): FP8 W8A8 ~99.5-100% recovery, INT8 W8A8 "
                  "~98-99%, INT4 weight-only (GPTQ) ~97-99%; llama.cpp perplexity tables (tools/perplexity README: Q8_0 "
                  "+~0.01%, Q6_K +~0.1%, Q4_K_M +~1-2%, Q3 and below several %); Dettmers et al. 2023 (QLoRA, NF4 "
                  "~16-bit MMLU after fine-tuning); NVIDIA NVFP4 model cards (DeepSeek-R1 FP4 within ~1% of FP8)")
QUALITY: dict[str, tuple[float, float, str]] = {  # format -> (low %, high % of 16-bit accuracy kept, verdict)
    "bf16": (100, 100, "the published weights"), "fp16": (100, 100, "the published weights"),
    "fp8": (99.5, 100, "near-lossless"), "q8_0": (99.5, 100, "near-lossless"), "int8": (98, 99.5, "close to 16-bit"),
    "q6_k": (99, 100, "near-lossless"), "q5_k_m": (98.5, 99.5, "close to 16-bit"),
    "nvfp4": (98, 99.5, "a small loss"), "mxfp4": (98, 99.5, "a small loss"),
    "awq": (97, 99, "a small loss, larger on small models"), "gptq": (97, 99, "a small loss, larger on small models"),
    "int4": (97, 99, "a small loss, larger on small models"), "nf4": (97, 99, "a small loss, larger on small models"),
    "q4_k_m": (97, 99, "a small loss, larger on small models"), "q4_0": (95, 98, "a clear small loss"),
    "iq4_xs": (97, 99, "a small loss"), "q3_k_m": (90, 96, "a clear loss"), "iq3_xxs": (88, 95, "a clear loss"),
    "q2_k": (80, 92, "a large loss"), "iq2_xxs": (75, 90, "a large loss"),
}
QUALITY_ZH = {"the published weights": "官方权重", "near-lossless": "几乎无损", "close to 16-bit": "接近 16 位",
              "a small loss": "小幅损失", "a small loss, larger on small models": "小幅损失，小模型更明显",
              "a clear small loss": "可见的小幅损失", "a clear loss": "明显损失", "a large loss": "大幅损失"}


def quality_kept(fmt: str) -> tuple[float, float, str] | None:
    """(low %, high %, verdict) of the 16-bit model's average benchmark accuracy a format keeps (QUALITY_SOURCE)."""
    try:
        return QUALITY.get(weight_format(fmt).id)
    except ValueError:
        return None
WeightFormatId = Literal[WEIGHT_FORMATS]  # type: ignore[valid-type]  # the ids as a type, for schemas
# What a bare 'Q2' … 'Q8' names: the GGUF quant people usually mean at that level (Q4 is Q4_K_M, llama.cpp's
# recommended 4-bit; Q2 is Q2_K, ~3.35 bits, not a 4-bit weight). 'Q4 2025' is a quarter, not a quant.
BARE_QUANT = {"2": "q2_k", "3": "q3_k_m", "4": "q4_k_m", "5": "q5_k_m", "6": "q6_k", "7": "q6_k", "8": "q8_0"}
# 'Q3 launch', 'by Q3', 'Q4 2025', 'Q3 上线前': a quarter of the year, not a GGUF quant level
NOT_A_QUARTER = (r"(?!\s*(?:20\d\d|'\d\d|fy|财年|季度|earnings|results|revenue|launch|release|deadline|roadmap|target|planning|"
                 r"goal|ship|rollout|go[\s-]?live|上线|发布|前|之前|底|末))(?<!\bby q[2-8])")
BARE_QUANT_PATTERN = r"(?<![a-z0-9_-])q([2-8])(?![a-z0-9_])" + NOT_A_QUARTER


def bare_quant(token: str) -> str | None:
    """The format id a bare quant level names ('Q4' -> 'q4_k_m'), or None when the token is not one."""
    m = re.fullmatch(r"\s*q([2-8])\s*", str(token).lower())
    return BARE_QUANT[m.group(1)] if m else None


# What a person may write for a format (lower-cased, '-' and '_' dropped) -> format id
SPELLINGS = {**{f"q{level}": fid for level, fid in BARE_QUANT.items()},"bfloat16": "bf16", "float16": "fp16", "half": "fp16", "e4m3": "fp8", "w8a8": "fp8", "fp8blockwise": "fp8",
             "w4a16": "int4", "4bit": "int4", "8bit": "int8", "bnb4bit": "nf4", "bitsandbytes4bit": "nf4",
             "qlora": "nf4", "q4km": "q4_k_m", "q5km": "q5_k_m", "q3km": "q3_k_m", "q6k": "q6_k", "q80": "q8_0",
             "q40": "q4_0", "q2k": "q2_k", "iq4xs": "iq4_xs", "iq3xxs": "iq3_xxs", "iq2xxs": "iq2_xxs",
             "mxfp4": "mxfp4", "nvfp4": "nvfp4", "awq": "awq", "gptq": "gptq"}


def weight_format(name: str) -> WeightFormat:
    """The format record for an id or a common spelling ('Q4_K_M', 'bfloat16', 'AWQ'); ValueError naming the ids."""
    key = str(name).strip().lower()
    if key in FORMATS:
        return FORMATS[key]
    key = re.sub(r"^gguf[\s_:-]*|[\s_.-]*gguf$", "", key)  # 'gguf-q4_k_m', 'Q4_K_M.gguf', 'GGUF Q8_0': the GGUF type
    if key in FORMATS:
        return FORMATS[key]
    squashed = key.replace("-", "").replace("_", "").replace(" ", "")
    if squashed in SPELLINGS:
        return FORMATS[SPELLINGS[squashed]]
    for fid in FORMATS:
        if fid.replace("_", "") == squashed:
            return FORMATS[fid]
    raise ValueError(f"unknown weight format {name!r}; known: {', '.join(WEIGHT_FORMATS)}")


def kv_default(fmt: str) -> str:
    """The KV-cache dtype an engine uses by default with this weight format (llama.cpp: f16; else bf16)."""
    f = weight_format(fmt)
    return "fp16" if f.id == "fp16" or f.family == "gguf" else "bf16"


def supported_on(fmt: str, gpu) -> tuple[bool, str | None]:
    """Can the card compute in this format natively? (False, why) when it cannot, e.g. no FP8 on Ampere.

    Formats with needs='any' run anywhere as weight-only (dequantised to 16-bit for the matmul)."""
    f = weight_format(fmt)
    if gpu is None or f.needs in ("any", "fp16"):
        return True, None
    bf16 = gpu.supports_bf16 if gpu.supports_bf16 is not None else gpu.bf16_dense_tflops is not None
    if f.needs == "bf16" and not bf16:
        return False, f"{gpu.name} has no BF16 support: use fp16"
    if f.needs == "fp8" and gpu.fp8_dense_tflops is None:
        return False, f"{gpu.name} has no FP8 tensor cores"
    if f.needs == "fp4" and gpu.fp4_dense_tflops is None:
        return False, f"{gpu.name} has no FP4 tensor cores"
    return True, None


CUDA_ONLY = ("awq", "gptq", "int4", "fp8", "nf4", "nvfp4")  # checkpoints only CUDA engines (vLLM, SGLang, TensorRT-LLM,
# transformers + bitsandbytes) load: llama.cpp and MLX on Apple silicon run GGUF files or MLX's own 4/8-bit conversions


def runs_on_apple(fmt: str) -> bool:
    """Whether llama.cpp or MLX on a Mac loads a checkpoint in this format (GGUF, 16-bit, MLX 8-bit; not AWQ, GPTQ,
    FP8, NF4 or NVFP4 checkpoints, which are CUDA engines' formats)."""
    return weight_format(fmt).id not in CUDA_ONLY


NO_FP8_AT_ALL = ("Huawei",)  # vendors whose cards run no FP8 format, not even weight-only (Ascend: W8A8 INT8 instead)


def runnable_format(fmt: str | None, gpu) -> str | None:
    """The format a card runs a request for `fmt` in: FP8 on a card with no FP8 path at all (Ascend) is its 8-bit
    route, W8A8 INT8, the same bytes; any other format as asked."""
    if fmt == "fp8" and gpu is not None and getattr(gpu, "vendor", None) in NO_FP8_AT_ALL:
        return "int8"
    return fmt


def precision_ladder(native: str, gpu, asked: str | None = None) -> list[tuple[str, str | None]]:
    """[(format id, note)] worth trying on `gpu`, most faithful first: the checkpoint's own format, the 16-bit
    one the card computes in, 8-bit (FP8 where the card has FP8 tensor cores, else INT8), 4-bit (the checkpoint's
    FP4 format, AWQ, or GGUF Q4_K_M on Apple silicon, where llama.cpp and MLX run), and GGUF Q8_0 on Apple."""
    apple = gpu is not None and getattr(gpu, "vendor", "") == "Apple"
    sixteen = "bf16" if supported_on("bf16", gpu)[0] else "fp16"
    eight = "q8_0" if apple else ("fp8" if supported_on("fp8", gpu)[0] else "int8")
    four = "q4_k_m" if apple else "awq"
    ids = [native, sixteen, eight, four] + ([weight_format(asked).id] if asked else [])
    if native in ("mxfp4", "nvfp4") and not supported_on(native, gpu)[0]:
        ids.remove(native)
    seen: list[str] = []
    for i in ids:
        if i not in seen and supported_on(i, gpu)[0]:
            seen.append(i)
    seen.sort(key=lambda i: -FORMATS[i].bits)
    notes = {native: "the checkpoint's own format"}
    if asked and weight_format(asked).id != native:
        notes[weight_format(asked).id] = "as asked"
    if eight == "int8" and gpu is not None:
        notes["int8"] = supported_on("fp8", gpu)[1] + ": 8-bit as INT8 weight-only"
    return [(i, notes.get(i)) for i in seen]


def _format_id(v: str) -> str:
    return weight_format(v).id


# A weight-format field of a request: any spelling weight_format() accepts, stored as its id.
FormatName = Annotated[str, AfterValidator(_format_id)]


# a published checkpoint's format (as the reader names it) -> the weight format it is sized in
CHECKPOINT_FORMATS = {"awq": "awq", "gptq-int4": "gptq", "gptq-int8": "int8", "fp8": "fp8", "bnb-4bit": "nf4",
                      "4bit": "int4", "mxfp4": "mxfp4", "nvfp4": "nvfp4", "gguf": "q4_k_m"}
