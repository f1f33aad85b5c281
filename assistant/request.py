"""Request: everything a person can state about a GPU job, typed, with units.

The one contract between reading a question (the rules reader, or an LLM filling this schema) and
answering it: the planner takes a Request, surfaces show it, the calculator is prefilled from it.
A field is None when the question (and the conversation before it) did not state it; defaults are
the planner's business and are always said out loud.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tools.formats import WEIGHT_FORMATS

Intent = Literal["training_memory", "inference_memory", "serving", "training_time", "inference_speed", "cost", "price",
                 "published_run", "recommend", "compare", "spec", "fact_check", "explain", "out_of_scope"]
Method = Literal["full", "lora", "qlora", "pretrain", "inference"]
Engine = Literal["vllm", "sglang", "hf", "llamacpp", "ollama", "tensorrt-llm"]
Interconnect = Literal["nvlink", "pcie", "ethernet-1g", "ethernet-10g", "ethernet-25g", "ethernet-100g", "ethernet-200g",
                       "ethernet-400g", "infiniband", "roce"]
Currency = Literal["USD", "CNY"]

# Fields that describe the question itself rather than the job; the enumeration test skips them.
META_FIELDS = ("intent", "lang", "stated", "follow_up", "compared", "model_text", "gpu_text", "unknown_gpu", "models", "standard_server",
               "family_flagship", "family", "ratio_only", "exact_format", "speedup_gpu", "rent_per_month_server",
               "hosting_includes_power", "unknown_model", "premise_notes", "closed_model", "quoted_tokens_per_s",
               "memory_asked", "family_desk", "rate_from_daily")


class Request(BaseModel):
    """A GPU question, understood: the job, the hardware, the money and the time, each as stated."""

    model_config = ConfigDict(extra="forbid")
    intent: Intent = Field("out_of_scope", description="what answer is wanted")
    lang: Literal["zh", "en"] = "en"

    # the job
    method: Method | None = Field(None, description="full / LoRA / QLoRA fine-tune, pre-train, or inference")
    methods: list[Literal["full", "lora", "qlora"]] = Field(default_factory=list,
                                                           description="several fine-tune methods named: compare them")
    model: str | None = Field(None, description="catalog id ('qwen2.5-7b'), a bare size ('70b'), or the id of a model "
                              "read from model_path")
    model_path: str | None = Field(None, description="a config.json (or a folder holding one) named in the question")
    model_text: str | None = Field(None, description="the model as written")
    checkpoint_format: str | None = Field(None, description="a published checkpoint's format: awq, gptq-int4, fp8, "
                                                            "gguf-q4_k_m, ... (sets the inference precision)")
    models: list[str] = Field(default_factory=list, description="every model named, in order (comparisons)")
    family_flagship: bool | None = Field(None, description="a model family named alone ('DeepSeek'): its flagship, said")
    family_desk: str | None = Field(None, description="a family named alone on one desk card ('Qwen … 4090'): sized as the "
                                    "member people run there, which one (and the method) asked beside it")
    samples: int | None = Field(None, ge=1, le=10_000_000_000, description="training samples counted with no length "
                                "('our 50k samples'): the tokens wait on their average length")
    sample_len: int | None = Field(None, ge=1, le=10_000_000, description="average tokens per training sample, when the "
                                   "data is given as samples x length ('50k samples, avg 1,500 tokens')")
    packing: bool | None = Field(None, description="samples packed into full sequences (True) or one sample per sequence "
                                 "('packing off': False; the steps then count samples)")
    claimed_tokens_per_s: float | None = Field(None, gt=0, le=1e7, description="a decode speed someone else reported for "
                                               "the model on the card, that the user asks whether to believe (judged "
                                               "against the memory, the estimate and the bandwidth ceiling)")
    host_price_per_server: float | None = Field(None, gt=0, description="the server the GPUs go in, priced apart from "
                                                "them ('chassis $14k', '服务器准系统另算 ¥8 万'), in `currency`")
    premise_notes: list[str] = Field(default_factory=list, description="a figure the message states about a card that "
                                     "is not so ('the 4090 comes with 48GB'), corrected first in the answer")
    quoted_tokens_per_s: float | None = Field(None, description="a second, quoted speed beside the one judged ('someone "
                                              "says 3000 tok/s'): said against the single-stream ceiling")
    closed_model: str | None = Field(None, description="a model whose weights are not released ('GPT-4', 'Claude'), named "
                                     "for self-hosting: said, and an open model of its class sized instead")
    unknown_model: str | None = Field(None, description="a model name as written that the catalog lacks ('Qwen4-100B'): "
                                      "sized as a generic dense model of its size, and asked about first")
    family: str | None = Field(None, description="a family named with 'how big a model': the answer names its members that fit")
    exact_format: bool | None = Field(None, description="a format named as one of alternatives: computed as named, even "
                                      "where it does not fit (the comparison says so)")
    ratio_only: bool | None = Field(None, description="asks a ratio between alternatives that hardly depends on the job "
                                    "('how much faster is FP8 than BF16?'): the job's defaults are said, nothing asked back")

    # the hardware
    gpu: str | None = Field(None, description="catalog GPU id")
    gpus: list[str] = Field(default_factory=list, description="every GPU named, in order")
    gpu_text: str | None = None
    unknown_gpu: str | None = Field(None, description="a GPU-like name the table lacks (never replaced silently)")
    ram_gb: float | None = Field(None, gt=0, description="system RAM in GB (local inference with part of the model "
                                 "offloaded to it: llama.cpp -ngl, --n-cpu-moe)")
    num_gpus: int | None = Field(None, description="total GPUs (nodes x GPUs per node when both are given)")
    gpus_per_node: int | None = None
    nodes: int | None = None
    interconnect: Interconnect | None = None
    tensor_parallel: int | None = Field(None, ge=1, le=1024, description="a tensor-parallel size the user asks for "
                                        "('TP=4', '--tensor-parallel-size 8'): checked against the model's heads")
    pipeline_parallel: int | None = Field(None, ge=1, le=1024, description="pipeline stages the user runs ('PP=4', "
                                          "'TP8 x PP4 x DP16'): a training layout with the tensor-parallel size")
    expert_parallel: int | None = Field(None, ge=1, le=1024, description="expert parallelism the user runs on an MoE "
                                        "model ('EP8', '专家并行 8'): each GPU holds 1/EP of every MoE layer's experts")
    standard_server: bool | None = Field(None, description="a node/server named without its GPU count: taken as the "
                                         "vendor's standard 8-GPU server (HGX/DGX), said as an assumption")

    # numerics
    precision: Literal[("fp32",) + WEIGHT_FORMATS] | None = Field(  # type: ignore[valid-type]
        None, description="weights (inference: bf16, fp8, awq, gptq, mxfp4, nvfp4, GGUF q4_k_m...) or training precision")
    kv_dtype: Literal["bf16", "fp16", "fp8"] | None = None
    full_model: bool | None = Field(None, description="满血 / the full model / unquantized: the complete model in its "
                                    "published checkpoint's own format (FP8 for DeepSeek-V3, BF16 for most)")

    # lengths and batches (tokens)
    seq_len: int | None = Field(None, description="training sequence length")
    context: int | None = Field(None, description="inference context per sequence (prompt + output)")
    prompt_len: int | None = None
    output_len: int | None = None
    micro_batch: int | None = None
    global_batch: int | None = None
    batch: int | None = Field(None, description="inference: sequences decoded together")
    max_throughput: bool | None = Field(None, description="asks for the most tokens/s the hardware can give (the largest "
                                        "batch that fits)")
    batch_items: int | None = Field(None, gt=0, le=10**12, description="an offline job: this many prompts (documents, "
                                    "rows) to run through the model; its time at full load is asked")
    batch_output_tokens: float | None = Field(None, gt=0, le=1e15, description="an offline job: this many output "
                                              "tokens to generate in all ('总共要生成 50 亿 token'); its time and cost at "
                                              "full load are asked")
    concurrent_users: int | None = None
    load_multiplier: float | None = Field(None, gt=1, le=100, description="the load grows by this factor ('double the "
                                          "users', '用户翻倍', '3x the traffic'); applied to the users stated or asked for")
    requests_per_s: float | None = None
    daily_active_users: int | None = Field(None, gt=0, description="users a day; the peak requests in flight are "
                                           "assumed from it (said) unless a concurrency is stated")
    device_kind: Literal["phone"] | None = Field(None, description="the device is not a GPU: 'phone' (its chip's "
                                                 "bandwidth and the memory one app may use; llama.cpp / MLC run on it)")
    rent_committed: bool | None = Field(None, description="the rental is a reserved term or contract ('1-year reserved', "
                                        "'包年'): every hour of the period is paid, worked or not")
    resale_fraction: float | None = Field(None, ge=0, lt=1, description="what the hardware sells for at the end, as a "
                                          "share of its price ('zero resale', '残值 30%'); None: none credited (said)")
    team_size: int | None = Field(None, gt=0, le=1_000_000, description="people in a team who will use it ('a 20-person "
                                  "R&D team', '十来个人'); the peak requests in flight are assumed from it (said)")
    quiet: bool | None = Field(None, description="the user wants a quiet, low-power machine ('不想太吵，功耗别太大', "
                               "'quiet-ish'): among near ties the lower draw wins, and a power cap is suggested")
    volume_is_output: bool | None = Field(None, description="tokens_per_day counts the output tokens only: the message "
                                          "gave its volume as input and output parts ('160M input, 40M output')")
    long_documents: bool | None = Field(None, description="the work sends long documents ('doc summarization', 'RAG over "
                                        "contracts', '长文档总结'): with no length stated, prompts are sized at 16k (said)")
    short_chats: bool | None = Field(None, description="the work is short chat turns ('mostly short chats', '短对话为主'): "
                                     "about 1k prompt and 256 output tokens each, an assumption said")
    engine: Engine | None = None
    gpu_memory_utilization: float | None = Field(None, gt=0, le=1, description="vLLM/SGLang share of GPU memory it takes")
    max_num_seqs: int | None = Field(None, ge=1, le=100_000, description="the engine's running-sequence cap as the user "
                                     "set it (vLLM --max-num-seqs, SGLang --max-running-requests)")

    # training job
    tokens: float | None = Field(None, description="training tokens (x epochs)")
    epochs: float | None = None
    optimizer: Literal["adamw", "adamw-8bit", "paged-adamw-8bit", "sgd", "adafactor"] | None = None
    zero: int | None = Field(None, ge=0, le=3)
    offload: Literal["none", "optimizer", "all"] | None = None
    recompute: Literal["none", "selective", "full"] | None = None
    loss: Literal["hf", "chunked"] | None = Field(None, description="the loss implementation: hf (the whole vocabulary's "
                                                  "logits held) or chunked (Liger FusedLinearCrossEntropy, torchtune "
                                                  "chunked loss, Unsloth: never all held)")
    lora_rank: int | None = None
    lora_targets: list[str] | None = Field(None, description="LoRA target modules (q_proj, v_proj, ...); None = all "
                                           "linear layers")
    checkpoint_stall: float | None = Field(None, ge=0, lt=1, description="share of training time stalled by blocking "
                                           "checkpoints ('checkpoint every 2h takes 10 min' = 10 / 120)")
    time_lost: float | None = Field(None, ge=0, lt=1, description="share of wall-clock time lost to failures and restarts "
                                    "('budget 5% of time lost to failures')")
    mfu: float | None = Field(None, gt=0, le=1, description="model FLOPs utilization the user states (0-1)")
    peak_tflops: float | None = Field(None, gt=0, le=100_000, description="a card's dense TFLOPS the user says to use")

    # what the user holds serving to
    ttft_s: float | None = Field(None, gt=0, le=3600, description="time-to-first-token target, seconds")
    itl_ms: float | None = Field(None, gt=0, le=600_000, description="inter-token latency target, milliseconds")
    throughput_tokens_per_s: float | None = Field(None, gt=0, description="an aggregate throughput the user states "
                                                  "(tokens/s over all GPUs): a cost per token is computed from it")
    throughput_scope: Literal["gpu", "node", "total"] | None = Field(None, description="what a stated throughput "
                                                                     "covers: one GPU (or instance), one server, or all "
                                                                     "the GPUs named (None: all)")
    tokens_per_day: float | None = Field(None, gt=0, le=1e15, description="tokens the service must make a day (a "
                                         "monthly volume over 730/24 days)")
    peak_factor: float | None = Field(None, ge=1, le=100, description="peak load over the day's average")
    rate_from_daily: bool | None = Field(None, description="requests_per_s is a daily count's average ('1M requests a "
                                         "day'), not a peak: the plan is sized at a peak over it")
    load_rate_stated: bool | None = Field(None, description="tokens_per_day is a rate the user must carry ('peak will be "
                                          "40k output tok/s', '要做到 2 万 tok/s'), held all day: the fleet is sized for "
                                          "that rate, with no peak assumed on top of it")
    per_token_cost: bool | None = Field(None, description="asks a cost per million tokens")
    reference_input_per_million: float | None = Field(None, gt=0, description="the compared API's price per million "
                                                      "input tokens, when it prices input apart")
    reference_cached_input_per_million: float | None = Field(None, gt=0, description="the compared API's price per "
                                                             "million input tokens served from its prompt cache ('命中 "
                                                             "0.5 元/百万', 'cached input $0.075/M')")
    cache_hit_rate: float | None = Field(None, ge=0, le=1, description="share of the input tokens the API serves from "
                                         "its prompt cache ('缓存命中率 30%')")
    input_output_ratio: float | None = Field(None, gt=0, le=10_000, description="input tokens per output token of the "
                                             "workload ('输入:输出 3:1')")
    reference_per_million: float | None = Field(None, gt=0, description="a price per million tokens to compare against "
                                                "(an API's), in `currency`")
    speedup: float | None = Field(None, gt=1, le=1000, description="a speed ratio the user states for one option "
                                  "over another on their job ('the H100 is ~3x faster', 'H800 快 2.5 倍')")
    speedup_gpu: str | None = Field(None, description="the GPU the stated speedup belongs to (the faster one)")
    tokens_per_s_per_user: float | None = Field(None, gt=0, le=10_000,
                                                description="decode rate each user must get (sets the ITL target)")

    # money and time
    gpu_rental_prices: dict[str, float] = Field(default_factory=dict, description="a rental price per GPU-hour the "
                                                "user states for each of several cards ('L4 $0.80, L40S $1.90, H100 "
                                                "$4.50'), in `currency`: used instead of the table's")
    price_ratios: dict[str, float] = Field(default_factory=dict, description="each of two cards' price relative to the "
                                           "cheaper one (1.0), as the user states it ('H800 租金差不多是 A800 的两倍' -> "
                                           "{'h800': 2.0, 'a800': 1.0}): the dearer card's price is the cheaper one's x "
                                           "the ratio, in place of the table's")
    gpu_purchase_prices: dict[str, float] = Field(default_factory=dict, description="a purchase price per card the user "
                                                  "states for each of several cards ('二手 3090 5500 一张，4090 1.9 万，5090 "
                                                  "2.3 万'), in `currency`: used instead of the table's")
    used_gpus: list[str] = Field(default_factory=list, description="cards the user prices second-hand ('二手 3090')")
    gpu_counts: dict[str, int] = Field(default_factory=dict, description="how many of each card a set-up has when several "
                                       "are named with their own counts ('move to 2x H100, or a single H200')")
    price_per_gpu_hour: float | None = Field(None, description="the user's rental price, in `currency`")
    hosting_per_month: float | None = Field(None, ge=0, description="the user's colocation / hosting cost per month for "
                                            "owned hardware, per server when the message is about a server, in `currency`")
    hosting_includes_power: bool | None = Field(None, description="the hosting cost includes power ('colo and power')")
    power_kw: float | None = Field(None, gt=0, le=1000, description="a server's measured power draw, kW (wall, IT side)")
    gpu_power_w: float | None = Field(None, gt=0, le=5000, description="each GPU's power draw the user states ('400 W/GPU'), "
                                      "in place of the card's TDP")
    server_overhead: float | None = Field(None, ge=0, le=5, description="the rest of the server's power as a share of the "
                                          "GPUs' ('+30% server overhead'), in place of the DGX-derived factor")
    node_overhead_kw: float | None = Field(None, gt=0, le=100, description="each server's draw beside its GPUs ('node "
                                           "overhead 2.5 kW'), kW")
    idle_power_share: float | None = Field(None, ge=0, le=1, description="an idle GPU's draw as a share of its full draw "
                                           "('idle ~30% of TDP')")
    pue: float | None = Field(None, ge=1, le=3, description="the facility's power usage effectiveness")
    depreciation_years: float | None = Field(None, gt=0, le=15, description="years owned hardware is written off over")
    rent_per_month: float | None = Field(None, gt=0, description="a monthly rental price the user states (a reserved "
                                         "or monthly plan), in `currency`; per server when rent_per_month_server")
    rent_per_month_server: bool | None = Field(None, description="the monthly price is for a whole server")
    purchase_price: float | None = Field(None, description="the user's purchase price per GPU, in `currency`")
    purchase_price_per_server: float | None = Field(None, description="per 8-GPU server, in `currency`")
    used: bool | None = Field(None, description="second-hand purchase")
    price_kind: Literal["rent", "buy"] | None = Field(None, description="price questions: renting or buying")
    provider: str | None = Field(None, description="the cloud named for a rental price ('AWS', 'Lambda', '阿里云')")
    purchase: bool | None = Field(None, description="asks what hardware to buy (own it): options ranked by purchase "
                                  "price as whole machines, not by rental rate")
    exclude_vendors: list[str] = Field(default_factory=list, description="GPU vendors the user rules out ('no NVIDIA', "
                                       "'不想折腾昇腾'), as the GPU table names them")
    only_vendors: list[str] = Field(default_factory=list, description="the only vendors allowed ('国产化': Huawei)")
    exclude_gpus: list[str] = Field(default_factory=list, description="cards the user rules out by name ('H100/H800 "
                                    "这些买不到', 'we can't get H100s'), GPU table ids")
    rack_units: int | None = Field(None, ge=1, le=200, description="rack space available, in U ('only 4U left in the "
                                   "rack', '机柜只剩 6U'): checked against the machine the answer ends on")
    power_limit_w: float | None = Field(None, gt=0, le=1e8, description="watts available: one outlet ('a 15 A 120 V "
                                        "outlet': 1,440 W continuous), a rack ('8kW 每机柜') or a site ('40 kW')")
    host_owned: bool | None = Field(None, description="the user already has the machine the cards go in (price the "
                                    "cards alone)")
    server: bool | None = Field(None, description="price of a whole (8-GPU) server")
    utilization: float | None = Field(None, description="share of the time owned GPUs work, 0-1")
    electricity_per_kwh: float | None = Field(None, gt=0, le=100, description="the user's electricity price per kWh, in `currency`")
    period_hours: float | None = Field(None, description="how long: rental period or job length, wall-clock hours")
    scale_run: str | None = Field(None, description="a published run (knowledge/data/training_runs.yaml id) the user "
                                  "quoted and asked to scale at its own rate ('using their number'): its GPU-hours per "
                                  "token (and per parameter) size the job")
    scale_run_tokens: float | None = Field(None, gt=0, description="the quoted run's tokens as the user wrote them ('for "
                                           "~15T tokens'), used in place of the published figure")
    measured_tokens: float | None = Field(None, gt=0, description="the tokens of the user's own earlier run whose length "
                                          "(period_hours) they measured, when the job asked about has other tokens")
    usage_gpu_hours_per_month: float | None = Field(None, gt=0, le=1e8, description="GPU-hours a month the user uses "
                                                    "now ('200 H100-GPU-hours a month', '每月 500 卡时'), on usage_gpu: "
                                                    "what buying instead of renting must replace")
    usage_gpu: str | None = Field(None, description="the card those GPU-hours run on (a catalog id), when named")
    measured_step_s: float | None = Field(None, gt=0, le=3600, description="seconds per optimizer step the user "
                                          "measured on the job's own setup ('2.4 s/step', '3.2s/it', '一步 2.4 秒'); with the "
                                          "tokens per step (global batch x sequence length) it times the job")
    measured_model: str | None = Field(None, description="the model of the user's earlier measured run, when it differs")
    measured_gpu: str | None = Field(None, description="the GPU of the user's earlier measured run, when it differs")
    measured_num_gpus: int | None = Field(None, ge=1, description="the GPU count of the earlier measured run, when it differs")
    measured_concurrency: int | None = Field(None, ge=1, le=100_000, description="the requests in flight a measured "
                                             "throughput was taken at ('并发 32 时总吞吐 1100 tokens/s'): one measured unit's load")
    api_spend_per_month: float | None = Field(None, gt=0, le=1e10, description="what the user pays an API a month now "
                                              "('we spend $12k/month on the API'), in the request's currency")
    api_model: str | None = Field(None, description="the hosted API the bill is paid to ('$18k/month on GPT-4o'): an id of "
                                  "knowledge/data/api_prices.yaml, whose list prices turn the bill into a volume")
    measured_rate_per_gpu: float | None = Field(None, gt=0, le=1e8, description="output tokens/s per GPU that a measured or "
                                                "quoted serving run reached (measured_model on measured_gpu): a "
                                                "cross-check scaled to the job's model, never the job's own rate")
    hours_per_day: float | None = None
    budget: float | None = None
    currency: Currency | None = Field(None, description="currency the user wrote prices or budget in")
    deadline_hours: float | None = None
    break_even: bool | None = Field(None, description="asks when buying pays back (no job length needed)")
    largest_model: bool | None = Field(None, description="asks how big a model the hardware can train or run")

    # what was read from this turn (names of fields), and whether it changes an earlier question
    stated: list[str] = Field(default_factory=list)
    follow_up: bool = False
    memory_asked: bool | None = Field(None, description="the thread asks how much memory the job takes ('how much "
                                      "VRAM …'): a follow-up ('what about FP8?') is answered with the memory too")
    compared: dict | None = Field(None, description="the alternatives an earlier turn compared ({'setting': 'precision', "
                                  "'values': ['bf16', 'fp8']}): a follow-up that changes the job compares them again")

    def given(self) -> dict:
        """The job fields that hold a value (what the restatement line shows)."""
        skip = set(META_FIELDS) | {"stated"}
        return {k: v for k, v in self.model_dump().items() if k not in skip and v not in (None, [], False)}


class Clarification(BaseModel):
    """A question back to the user when the answer hinges on something missing."""

    missing: list[str] = Field(description="Request fields that are missing")
    question: str
    suggestions: list[str] = Field(description="2-4 completions the user can send as they are")
