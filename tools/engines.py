"""Serving engines: how each one takes GPU memory, batches requests and is launched.

One row per engine, with where each default was read. The serving planner (tools/serving.py) reads
these; nothing else knows an engine's defaults.
- vLLM: pre-allocates gpu_memory_utilization x capacity, profiles one forward of max_num_batched_tokens
  for activations, captures CUDA graphs, and fills the rest with paged KV blocks (16 tokens). Continuous
  batching with chunked prefill; past the pool it queues new requests and preempts running ones
  (recompute) when blocks run out.
- SGLang: mem_fraction_static of capacity for weights + KV pool (the rest for activations and graphs);
  radix-tree prefix cache on by default; continuous batching, queues past the pool.
- Hugging Face transformers generate(): no server, no paging: one static batch at a time, KV grows as
  it generates; a request that arrives mid-batch waits for the batch to finish.
- llama.cpp server / Ollama: n_parallel slots share one context of -c tokens (each slot gets -c / n_parallel),
  allocated at start; continuous batching across slots; a request past the slots waits.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

EngineId = Literal["vllm", "sglang", "hf", "llama.cpp"]


class Engine(BaseModel):
    id: EngineId
    name: str
    preallocates: bool = Field(description="takes a fixed share of GPU memory at start and pages KV into it")
    memory_fraction: float | None = Field(description="share of capacity the engine takes (None: allocates as it goes)")
    fraction_flag: str | None
    continuous_batching: bool
    max_num_seqs: int | None = Field(description="running sequences per replica, the engine's default cap")
    max_num_seqs_flag: str | None
    launch: str | None = Field(None, description="the launch line's start; {repo} is the model")
    tp_flag: str | None = None
    pp_flag: str | None = None
    context_flag: str | None = None
    kv_fp8: str | None = Field(None, description="the --kv-cache-dtype value for an FP8 KV cache")
    max_batched_tokens: int | None = Field(description="tokens one scheduler step processes (chunked prefill budget)")
    cuda_graphs: bool
    prefix_cache: str
    past_the_pool: str = Field(description="what happens to requests beyond what the KV pool holds")
    source: str


ENGINES: dict[str, Engine] = {e.id: e for e in (
    Engine(id="vllm", name="vLLM", preallocates=True, memory_fraction=0.9, fraction_flag="--gpu-memory-utilization",
           continuous_batching=True, max_num_seqs=256, max_num_seqs_flag="--max-num-seqs", max_batched_tokens=8192,
           launch="vllm serve {repo}", tp_flag="--tensor-parallel-size", pp_flag="--pipeline-parallel-size",
           context_flag="--max-model-len", kv_fp8="fp8",
           cuda_graphs=True, prefix_cache="automatic prefix caching, on by default in the V1 engine",
           past_the_pool="new requests wait in the queue; when running sequences need more KV blocks than are free, "
                         "the newest is preempted and recomputed later (its latency jumps)",
           source="vllm/engine/arg_utils.py and config/cache.py, read in the v0.11 wheel (gpu_memory_utilization 0.9 "
                  "of total memory, block_size 16, max_num_seqs 256 and max_num_batched_tokens 8192 for the OpenAI "
                  "server; >= 70 GiB non-A100 GPUs get max_num_seqs 1024). Later releases differ: 0.20-0.33 default "
                  "gpu_memory_utilization 0.92 and subtract a CUDA-graph estimate; 0.34 sizes an extensible KV cache "
                  "from free memory after graph capture and uses block_size 64. Modelled: v0.11; set "
                  "--memory-fraction / --max-num-seqs for another release"),
    Engine(id="sglang", name="SGLang", preallocates=True, memory_fraction=0.88, fraction_flag="--mem-fraction-static",
           continuous_batching=True, max_num_seqs=None, max_num_seqs_flag="--max-running-requests",
           launch="python -m sglang.launch_server --model-path {repo}", tp_flag="--tp", pp_flag="--pp-size",
           context_flag="--context-length", kv_fp8="fp8_e4m3",
           max_batched_tokens=8192, cuda_graphs=True, prefix_cache="RadixAttention prefix cache, on by default",
           past_the_pool="requests wait in the queue until the pool frees; running requests can be retracted "
                         "(recomputed) when decode runs out of KV space",
           source="sglang python/sglang/srt/server_args.py, read in the 0.4.6 and 0.5.23 wheels: mem_fraction_static "
                  "0.88/0.87/0.85/0.81 for TP 1/2/4/8 on <= 80 GB cards in 0.4.6; 0.5.x derives it from reserved "
                  "memory (~0.83 on an 80 GB H100 at TP1); chunked_prefill_size 8192 on 60-160 GiB cards; radix "
                  "cache on; max_running_requests from the pool. Modelled: 0.88 (TP1, 0.4.x)"),
    Engine(id="hf", name="Hugging Face transformers generate()", preallocates=False, memory_fraction=None,
           fraction_flag=None, continuous_batching=False, max_num_seqs=None, max_num_seqs_flag=None,
           max_batched_tokens=None, cuda_graphs=False, prefix_cache="none",
           past_the_pool="one static batch at a time: a request arriving mid-batch waits for the whole batch",
           source="transformers GenerationMixin.generate with DynamicCache (no paging, no server)"),
    Engine(id="llama.cpp", name="llama.cpp server (and Ollama)", preallocates=True, memory_fraction=None,
           fraction_flag=None, continuous_batching=True, max_num_seqs=4, max_num_seqs_flag="--parallel",
           max_batched_tokens=2048, cuda_graphs=True, prefix_cache="per-slot prompt cache",
           past_the_pool="one request per slot; further requests wait for a free slot",
           source="llama.cpp common/arg.cpp (commit 0c1e570, as bundled in llama-cpp-python 0.3.36): --parallel auto "
                  "= 4 slots with a unified KV cache; -c 0 = the trained context; -b 2048; KV f16. Ollama: "
                  "OLLAMA_NUM_PARALLEL 1 since v0.10, KV for num_ctx x num_parallel"),
)}


def engine(engine_id: str) -> Engine:
    """The engine row for an id; a ValueError lists the ids accepted."""
    key = {"vllm": "vllm", "sglang": "sglang", "hf": "hf", "transformers": "hf", "llama.cpp": "llama.cpp",
           "llamacpp": "llama.cpp", "llama-cpp": "llama.cpp", "ollama": "llama.cpp",
           "tensorrt-llm": "vllm"}.get(engine_id.strip().lower())  # TensorRT-LLM: planned as the paged-KV engine
    if key is None:
        raise ValueError(f"unknown engine {engine_id!r}: use one of {', '.join(ENGINES)} (ollama = llama.cpp)")
    return ENGINES[key]


def prefill_at_once(engine_id: str | None, prompt: int) -> int:
    """Tokens one prefill step takes: vLLM and SGLang prefill a long prompt in chunks of their token budget
    (max_num_batched_tokens 8192), llama.cpp in batches of -b; only transformers generate() ('hf') takes the whole
    prompt at once. An engine not named is one of the chunking servers people run."""
    if engine_id == "hf":
        return prompt
    return min(prompt, ENGINES["vllm"].max_batched_tokens)
