"""Issue 24 (set H classes): numbered items read one by one; vendor and power constraints in what to buy; a step's
batch is not the dataset; rates written with the time first; long prompts prefilled in chunks; the published format
leads a 'how many GPUs' answer; a quotation is a run only when it quotes figures."""
from __future__ import annotations

import pytest

from assistant.readers import slots
from assistant.readers.items import split_items
from assistant.readers.rules import read
from assistant.service import ask
from knowledge.catalog import default_catalog

CAT = default_catalog()


# --- numbered items ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("marks", [("1.", "2.", "3."), ("1）", "2）", "3）"), ("(1)", "(2)", "(3)"), ("①", "②", "③"),
                                   ("1、", "2、", "3、")])
def test_items_at_line_starts_are_split_in_order(marks):
    text = "部署 Qwen2.5-72B，问三个事：\n" + "\n".join(f"{m} {x}" for m, x in zip(marks, ("FP16 几张", "AWQ 几张", "KV 多大")))
    head, items = split_items(text)
    assert head.startswith("部署") and items == ["FP16 几张", "AWQ 几张", "KV 多大"]


def test_decimals_and_out_of_order_numbers_are_not_items():
    assert split_items("weights 2.5 GB\nand 3. something else")[1] == []   # starts at 3: no run 1, 2, ...
    assert split_items("1.5 GB of KV, 2.5 GB of weights")[1] == []


def test_an_items_load_stays_in_that_item():
    a = ask("我们公司想内部部署 Qwen2.5-72B-Instruct，问三个事：\n1. FP16 要几张 A100 80G\n2. 用 AWQ int4 的话要几张\n"
            "3. 50 个人同时用，每人 4k 上下文，KV cache 要多少显存")
    parts = a.answer.split("### ")
    assert len(parts) >= 4  # a preface and three answers
    one, two, three = parts[1], parts[2], parts[3]
    assert "batch 50" not in one and "batch 50" not in two  # item 3's load is not items 1 and 2's
    assert "batch 50" in three or "50 路" in three
    # item 2 builds on item 1's card: AWQ 72.7e9 x ~0.53 B = ~38-45 GB on one A100 80GB, fits
    assert "A100" in two and "可以" in two


def test_a_probe_in_one_item_is_not_carried_to_the_next():
    a = ask("RTX 4090 24G 跑 GLM-4-9B-chat，\n1）BF16 能不能装下\n2）128k 上下文行不行\n3）单用户大概多少 token/s")
    one, two, three = a.answer.split("### ")[1:4]
    # 1: 9.4e9 x 2 B = 18.8 GB of weights at the default 4k context: fits 24 GB; 2: 128k does not; 3: not at 128k
    assert "可以" in one and "放不下" in two and "131072" not in three


# --- a step's batch is not the dataset -----------------------------------------------------------------------------------
@pytest.mark.parametrize("phrase", ["global batch 4M tokens", "global batch size of 4M tokens", "gbs 4M tokens",
                                    "每步 4M token"])
def test_a_global_batch_in_tokens_is_not_the_training_data(phrase):
    r = read(f"pretrain a 3B model, seq 4096, {phrase}, 64 H800, train on 300B tokens, how long?", CAT).request
    assert r.tokens == 300e9


def test_the_per_gpu_split_of_a_step_is_answered_when_asked():
    a = ask("预训练 3B，seq 4096，global batch 4M tokens，纯 DP 64 张 H800，ZeRO-1，MFU 40%，训 300B tokens。"
            "每步多少秒？每卡 micro batch 和梯度累积怎么设？")
    # 4,000,000 / 4,096 = 977 sequences / 64 GPUs = 15.3: rounded to 16 each (1,024 sequences), 4 x 4
    assert "每卡 16 条" in a.answer and "4 × 4" in a.answer
    assert "这一问不在其中" not in a.answer


# --- rates with the time first ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, rate", [("要做到每秒 1000 万 token 输出", 1e7), ("需要每秒 2.5万 token", 2.5e4),
                                         ("we need 10 million tokens per second", 1e7), ("目标 3k tokens/s", 3e3)])
def test_a_rate_written_in_words_is_a_load_to_reach(text, rate):
    got = slots.needed_rate(text.lower())
    assert got is not None and got[0] == pytest.approx(rate)


def test_single_user_latency_beside_a_total_rate_is_not_batch_1():
    r = read("用 8 张 H100 跑 Qwen2.5-7B，要做到每秒 1000 万 token 输出，单用户首 token 延迟 1 毫秒", CAT).request
    # the load is the rate: 1e7 output tokens/s = 19,531.25 requests/s of the serving plan's default 512-token answers
    # (or, where no model is sized, 1e7 x 86,400 tokens a day)
    assert r.batch is None and r.output_len is None
    assert (r.requests_per_s or 0) * 512 == pytest.approx(1e7, rel=1e-3) or r.tokens_per_day == pytest.approx(1e7 * 86400)


# --- vendors ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, excluded, only", [
    ("procurement says no nvidia for this project", ["NVIDIA"], []),
    ("不能买英伟达的卡", ["NVIDIA"], []),
    ("不想折腾昇腾", ["Huawei"], []),
    ("国产化要求", [], ["Huawei"]),
    ("不能买英伟达以外的", [], ["NVIDIA"]),
    ("不能买英伟达以外的……不对，是不能买英伟达的", ["NVIDIA"], []),  # the correction wins
    ("we run nvidia h100s", [], []),
])
def test_vendor_rules_are_read_and_the_last_one_wins(text, excluded, only):
    got = slots.vendors(text)
    assert got.get("exclude_vendors", []) == excluded and got.get("only_vendors", []) == only


def test_no_nvidia_moves_the_assumed_card_and_the_purchase_list():
    a = ask("Procurement says no NVIDIA for this project. We need to serve Llama 3.1 8B at ~50 requests/s peak, "
            "avg 1k tokens in / 200 out. What hardware and how many?")
    head = a.answer.split("\n\n")[1]
    assert "NVIDIA" not in head and ("MI300X" in head or "Ascend" in head)
    b = ask("不能买英伟达的（国产化要求）。要做 Qwen2.5-7B 全参微调，推荐买什么卡？")
    table = [ln for ln in b.answer.splitlines() if ln.startswith("| ") and "张" not in ln]
    assert table and all("NVIDIA" not in ln and "AMD" not in ln for ln in table)


def test_a_rule_sentence_without_figures_is_not_a_quoted_run():
    rd = read("Procurement says no NVIDIA for this project (long story). We need to serve Llama 3.1 8B.", CAT)
    assert not any("quoted as reference" in w for w in rd.warnings) and rd.request.exclude_vendors == ["NVIDIA"]


# --- power ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, watts", [("a normal 15a 120v us outlet", 0.8 * 15 * 120),  # continuous-load rule: 1,440 W
                                          ("we have 40 kw of rack power available", 40_000),
                                          ("每个机柜只有 8kw 电", 8_000), ("the 4090 draws 450w", None)])
def test_power_available_is_read(text, watts):
    assert slots.power_limit(text).get("power_limit_w") == watts


def test_machine_power_by_kind():
    from tools.purchase import machine_power_w

    gpu = lambda g: CAT.gpu(g)[0]  # noqa: E731
    assert machine_power_w(gpu("h100"), 8) == pytest.approx(10_200)          # DGX H100: 10.2 kW for 8 x 700 W
    assert machine_power_w(gpu("rtx-3090"), 2) == pytest.approx((2 * 350 + 300) / 0.9)  # 1,111 W at the wall


def test_a_purchase_stays_within_the_outlet():
    from tools.purchase import PurchaseRequest, machine_power_w, plan_purchase
    from knowledge.prices import load_prices

    model = CAT.model("llama-3.1-70b")[0]
    cards = [CAT.gpu(g)[0] for g in ("rtx-3090", "rtx-3090-ti", "rtx-4090", "a100-80gb-pcie")]
    plan = plan_purchase(PurchaseRequest(model=model, gpus=cards, prices=load_prices().records, budget=10_000,
                                         power_limit_w=1440))
    assert plan.options and all(o.power_w <= 1440 for o in plan.options)
    # four 450 W cards: (4 x 450 + 300) / 0.9 = 2,333 W, over a 1,440 W outlet: never offered
    assert machine_power_w(CAT.gpu("rtx-3090-ti")[0], 4) > 1440
    assert not any(o.gpu == "rtx-3090-ti" and o.num_gpus == 4 for o in plan.options)


# --- memory answers ------------------------------------------------------------------------------------------------------
def test_a_long_prompt_is_prefilled_in_chunks():
    short = ask("Llama 3.1 8B int4 on one RTX 4090 at 32k context: how much memory?").figures
    long = ask("Llama 3.1 8B int4 on one RTX 4090 at 128k context: how much memory?").figures
    # KV 128 KiB/token: 98,304 more tokens = 12.9 GB more; prefill activations are one 8,192-token chunk either way
    # (a one-shot prefill of 131,072 tokens would add ~13 GB of activations on top: the difference would double)
    kv_more = 98_304 * 131_072 / 1e9
    assert kv_more <= long["per_gpu_gb"] - short["per_gpu_gb"] <= 1.1 * kv_more


def test_how_many_gpus_leads_with_the_published_format():
    a = ask("Llama 3.1 8B Instruct, ~200 requests in flight at once, avg prompt ~2k tokens, avg answer ~500 tokens: "
            "how much KV cache memory does that need and how many H100 80GB?")
    # bf16: 16.06 GB of weights + 200 x 2,548 x 131,072 B = 66.8 GB of KV > one card's 84.7 GB usable with workspace
    assert "2× NVIDIA H100 80GB SXM5 in bf16" in a.answer or "2× NVIDIA H100" in a.answer
    assert "Yes, in int4" not in a.answer


def test_a_class_named_below_the_need_says_the_cards_real_capacity():
    a = ask("how much vram do i need to run llama 3.1 70b in fp16 for inference? just me, 8k context max")
    line = next(ln for ln in a.answer.splitlines() if ln.startswith("**Smallest single GPU"))
    # 141 GB class, 146.4 GB needed: the H200 holds 150.8 GB (143,771 MiB as nvidia-smi reports it)
    assert "150.8 GB" in line


# --- set I classes: units, devices, pasted configs, quoted runs ------------------------------------------------------------
@pytest.mark.parametrize("text", ["想在家里放一台，整机功耗别超 500W，买啥好？跑 Qwen2.5-32B Q4",
                                  "Rack budget: 12 kW for this node. Llama 3.1 405B BF16, what GPUs?",
                                  "4090 一张显存 24GB 也就是 2.4万GB 吧，跑 Qwen2.5-72B FP16 要几张"])
def test_a_power_or_a_memory_size_is_never_money(text):
    r = read(text, CAT).request
    assert r.budget is None and r.purchase_price is None and r.price_per_gpu_hour is None


def test_slang_wan_is_still_money_beside_a_budget():
    assert read("预算 5w，想跑 32B，买啥卡", CAT).request.budget == 50_000


def test_a_limit_on_the_machines_draw_is_read_but_a_cards_draw_is_not():
    assert slots.power_limit("整机功耗别超 500w").get("power_limit_w") == 500
    assert slots.power_limit("4090 功耗 450w").get("power_limit_w") is None


def test_a_unit_slip_is_said():
    rd = read("4090 一张显存 24GB 也就是 2.4万GB 吧，跑 Qwen2.5-72B FP16 要几张", CAT)
    # 万 = 10,000: 2.4万 GB = 24,000 GB = 24 TB; 24 GB = 2.4万 MB
    assert any("24,000 GB" in w and "2.4万 MB" in w for w in rd.warnings)  # (said in the question's language)


def test_one_machine_at_home_is_not_an_8_gpu_server():
    r = read("想在家里书房放一台跑 DeepSeek-R1-Distill-Qwen-32B，整机功耗别超 500W，买啥好？", CAT).request
    assert not r.standard_server and r.num_gpus is None and r.intent == "recommend"
    assert slots.standard_server("公司机房放一台服务器").get("num_gpus") == 8  # a server, no count: the standard 8


@pytest.mark.parametrize("text, mem", [("a mid-range android phone with 8gb ram", 8), ("12gb 内存的安卓机", 12),
                                        ("手机 12gb 运存", 12)])
def test_a_phone_is_a_device_with_its_memory_not_a_question_back(text, mem):
    r = read(f"{text}: what's the biggest model I can run on it?", CAT).request
    g = CAT.gpu(r.gpu)[0]  # (tests/test_phones.py: one app holds about half the phone's memory, at its chip's bandwidth)
    assert r.device_kind == "phone" and g.memory_gb == pytest.approx(mem * 0.5) and g.memory_bandwidth_gbps


def test_a_users_own_model_sentence_is_not_a_quoted_run():
    rd = read("We have 8x A100 80GB and ~200M tokens of legal docs. Want to adapt Mistral Small 24B. Full fine-tune or "
              "LoRA?", CAT)
    assert rd.request.model == "mistral-small-24b" and not any("quoted" in w for w in rd.warnings)
    rd = read("Meta reported that Llama 3.1 405B took 30.84M H100 GPU-hours. We want to pretrain a 13B model on 2T tokens "
              "with 128 H100s. How long?", CAT)
    assert any("quoted" in w for w in rd.warnings)  # a run quoted by its figures is still set aside


def test_training_tokens_with_a_word_between_are_the_dataset():
    assert slots.tokens("2b training tokens total").get("tokens") == 2e9


def test_a_pasted_config_that_asks_for_figures_is_the_users_job():
    a = ask("Full fine-tune plan, please check memory + time:\n- model: Llama 3.1 8B (base)\n- 8x H100 80GB SXM, single "
            "node\n- DeepSpeed ZeRO-2, bf16 mixed precision, AdamW\n- seq len 8192 (packed), micro batch 1 per GPU, global "
            "batch 128 sequences (grad accumulation)\n- 2B training tokens total\n- assume 40% MFU\nWhat's peak memory "
            "per GPU, seconds per optimizer step, and total wall-clock?")
    # 128 x 8,192 = 1,048,576 tokens a step; 2e9 / 1,048,576 = 1,907 steps; 6 x 8.03e9 x 1,048,576 (+ attention) /
    # (8 x 989.4e12 x 0.40) = ~17-18 s a step, ~9-10 h
    assert "claim holds" not in a.answer and "1,907 optimizer steps" in a.answer
    assert len(a.asks) == 2


def test_phi_3_mini_is_in_the_catalog():
    spec = CAT.model("Phi-3-mini-4k-instruct")[0]
    # microsoft/Phi-3-mini-4k-instruct config.json: 32 layers, hidden 3072, 32 heads (MHA), 4,096 context
    assert (spec.num_layers, spec.hidden_size, spec.num_kv_heads, spec.max_context) == (32, 3072, 32, 4096)


# --- a what-if at the end is a second ask, read as the next turn ---------------------------------------------------------
def test_a_trailing_what_if_is_answered_beside_the_question():
    a = ask("自建 10 台 8 卡 910B（每台满载按 5.6kW 估），机房 PUE 1.4，电价 0.65 元/度。一年电费多少？如果平均负载只有 60% 呢？")
    # full load: 10 x 5.6 kW x 1.4 x 8,760 h x ¥0.65 = ¥446,410; at 60%: x 0.6 = ¥267,846
    assert "¥446,410" in a.answer and "¥267,846" in a.answer
    assert "power_limit_w" not in a.answer  # 'each draws 5.6 kW at full load' is a draw, not a limit


def test_a_what_if_changes_only_what_it_names():
    a = ask("On one H100 80GB with vllm, Qwen2.5-32B-Instruct in fp8 with an fp8 KV cache, max-model-len 32768, "
            "gpu-memory-utilization 0.92: roughly how many full 32k-token sequences can be in flight at once? And if real "
            "requests average ~8k tokens?")
    assert len(a.asks) == 2
    one, two = a.asks
    assert one.request["context"] == 32768 and two.request["context"] == 8192
    assert two.request["precision"] == "fp8" and two.request["kv_dtype"] == "fp8"  # the rest is the first question's


@pytest.mark.parametrize("text", ["负载只有 60%", "利用率降到 60%", "load drops to 60%", "平均负载 60%"])
def test_a_load_written_with_a_word_between_is_the_utilization(text):
    assert read(f"8 张 H100 一年电费多少，电价 0.6 元/度，{text}", CAT).request.utilization == pytest.approx(0.6)


def test_a_stated_layout_is_not_an_alternative_count():
    a = ask("Pretraining a 70B dense model on 1T tokens. Cluster: 512x H100 SXM. Parallelism TP8 (intra-node) x PP4 x "
            "DP16. Seq len 8192, global batch 1024 sequences, micro batch 1. We measured 38% MFU. How many days, and "
            "the time per step?")
    # one job on 512 GPUs (8 x 4 x 16), never '8 GPUs' as a second option; 1,024 sequences over DP 16 = 64 per rank
    assert not a.asks or all(x.request.get("num_gpus") == 512 for x in a.asks)
    assert "1,024 over 16 data-parallel" in a.answer and "gradient accumulation 64" in a.answer


def test_an_if_that_opens_the_question_is_not_a_what_if():
    from assistant.readers.whatif import what_if_asks

    q = ("The Llama 3.1 model card says the 405B took 30.84M H100 GPU-hours on ~15T tokens. If we trained a 70B model "
         "the same way, how many GPU-hours would that be?")
    assert what_if_asks(q, read(q, CAT).request, CAT) == []


def test_options_with_their_own_hourly_prices_are_compared_per_token():
    a = ask("70B 模型（Llama-3.3-70B）推理服务，看吞吐。租卡两个选择：8 卡 L40S 机器 ¥7/卡/小时，或者 4 卡 H100 SXM ¥15/卡/小时。选哪个？")
    # per hour: 8 x ¥7 = ¥56 against 4 x ¥15 = ¥60; per token the faster H100 set wins (its throughput more than offsets)
    assert "¥56.00" in a.answer and "¥60.00" in a.answer and "**选 4× H100" in a.answer


def test_models_that_do_not_fit_in_bf16_are_compared_in_fp8_with_a_pick():
    a = ask("客服场景，高峰 30 个左右并发，平均上下文 3-4k token，只有一张 L20 48G。Qwen3-30B-A3B 和 Qwen3-32B 效果对我们来说差不多，"
            "选哪个能扛得住？")
    # BF16 weights 61 GB and 65.5 GB exceed 48 GB; in FP8 (30.5 / 32.8 GB) the MoE's KV (96 KiB/token against 256 KiB)
    # holds several times the requests: pick Qwen3-30B-A3B
    assert all(x.request["precision"] == "fp8" for x in a.asks)
    assert "**选 Qwen3 30B-A3B (MoE)**" in a.answer and "None" not in a.answer  # (each model labelled by its name)
    assert all(x.request.get("concurrent_users") == 30 for x in a.asks)  # '30 个左右并发'


def test_a_fit_ask_under_a_pasted_config_is_answered_beside_the_time():
    a = ask("Full fine-tune plan, please check memory + wall-clock:\n- model: Llama 3.1 8B (base)\n- seq_len 8192, "
            "micro_batch 2 per GPU, global batch 128 (sequences)\n- 8x H100 80GB SXM, DeepSpeed ZeRO-3, bf16, no offload\n"
            "- dataset 400M tokens (packed), 2 epochs\n- assume 40% MFU\nWill it fit per GPU and how long will it take?")
    assert {x.intent for x in a.asks} == {"training_time", "training_memory"}
    mem = next(x for x in a.asks if x.intent == "training_memory")
    # ZeRO-3 over 8: 16 B x 8.03e9 / 8 = 16 GB of states per GPU, plus activations at 2 x 8,192 tokens: fits 80 GB
    assert mem.verdict.fits and 16 <= mem.verdict.per_gpu_gb <= 60


def test_a_megatron_layout_splits_the_states_over_tp_and_pp():
    a = ask("训练配置:Qwen2.5-72B 全参 SFT,Megatron-LM,TP=8,PP=4,DP=2,共 64 张 H800;seq 4096,global batch 256,"
            "micro batch 1;full recompute;bf16;distributed optimizer(类似 ZeRO-1);MFU 按 35% 算。数据 5 亿 tokens,训 3 个 "
            "epoch。问:每张卡显存大概多少?多久训完?")
    mem = next(x for x in a.asks if x.intent == "training_memory")
    # 72.7e9 parameters over TP 8 x PP 4 = 32 shards: bf16 weights + grads 4 B x 2.27e9 = 9.1 GB, fp32 master + Adam
    # 12 B x 2.27e9 / DP 2 (ZeRO-1) = 13.6 GB: ~23 GB of states, plus one micro-batch's activations; never 318 GB
    assert 22 <= mem.verdict.per_gpu_gb <= 45
    assert mem.request["tensor_parallel"] == 8 and mem.request["pipeline_parallel"] == 4


@pytest.mark.parametrize("q, model, scale", [
    ("Our own measurement: LoRA fine-tune of Llama 3.1 8B on 1x A100 80GB runs at ~2,800 tokens/s (seq 2048). I need "
     "to run the same recipe on Llama 3.1 70B over ~300M tokens. How many GPU-hours should I budget on H100s?",
     "llama-3.1-70b", "llama-3.1-8b"),
    ("On my own 2x RTX 4090 box I measured ~2,300 tokens/s total training throughput for LoRA on Mistral 7B (seq 2048). "
     "A client now wants LoRA on Llama 3.1 70B over 300M tokens on 8x H100 SXM. Based on my measurement, how long?",
     "llama-3.1-70b", "mistral-7b"),
])
def test_a_measured_training_rate_on_another_model_is_scaled_to_the_job(q, model, scale):
    a = ask(q)
    # the job is the model named last; the measured setup takes tokens / rate for the same tokens (300e6 / 2,800 =
    # 29.8 h; 300e6 / 2,300 = 36.2 h) and is scaled by the estimator's ratio between the two setups
    assert a.request["model"] == model and (a.request.get("measured_model") or "").startswith(scale.split("-v")[0][:9])
    assert "From the measured run" in a.answer and "own efficiency" not in a.answer


@pytest.mark.parametrize("q, word", [("serve Qwen2.5-7B on 8 H100 with a TTFT of 1 ms for each user", "not reachable"),
                                      ("用 8 张 H100 跑 Qwen2.5-7B，单用户首 token 延迟 1 毫秒", "做不到")])
def test_a_first_token_faster_than_any_engine_is_called_unreachable(q, word):
    # a serving engine spends ~23 ms per request before its first token (efficiency.REQUEST_OVERHEAD_S, fitted)
    assert any(word in w for w in read(q, CAT).warnings)
