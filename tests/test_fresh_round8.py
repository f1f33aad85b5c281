"""Issue 24, eighth round: the user's own money (a capex cap, each card's purchase price, the platform the cards go in)
and bills over the job (the electricity of a run, and of the thread's two cards), generated over cards, prices and
phrasings."""
from __future__ import annotations

import math

import itertools
import re

import pytest

from assistant.readers.rules import read
from assistant.service import ask
from knowledge.catalog import default_catalog

CAT = default_catalog()


def _req(text: str, previous: dict | None = None):
    return read(text, CAT, previous).request


# --- a spending cap is a budget -----------------------------------------------------------------------------------------
CAPS = ["Capex cap {m}.", "capex limit of {m}", "budget cap {m}", "hardware budget cap of {m}", "spend limit {m}",
        "purchase capped at {m}"]


@pytest.mark.parametrize("phrase,amount", list(itertools.product(CAPS, [("$80k", 80_000), ("$1.2M", 1_200_000),
                                                                    ("$45,000", 45_000)])))
def test_a_spending_cap_is_read_as_the_budget(phrase, amount):
    written, value = amount
    req = _req(f"Need to serve Llama 3.3 70B for 30 users, 8k context. {phrase.format(m=written)} which server?")
    assert req.budget == pytest.approx(value)


@pytest.mark.parametrize("written,value", [("上限 50 万", 500_000), ("封顶 30 万", 300_000), ("预算上限 8 万", 80_000)])
def test_a_chinese_cap_is_read_as_the_budget(written, value):
    req = _req(f"公司要部署 Qwen2.5-72B 给 20 人用，采购{written}，买什么卡？")
    assert req.budget == pytest.approx(value)


def test_a_power_limit_is_not_a_budget():
    req = _req("serve Llama 3.1 8B for 10 users, power limit 3 kW per box, what should we buy?")
    assert req.budget is None


# --- each card's own purchase price ------------------------------------------------------------------------------------
CARDS = [("rtx-3090", "3090"), ("rtx-4090", "4090"), ("rtx-5090", "5090"), ("l40s", "L40S"), ("a100-80gb", "A100 80GB")]
def _zh_amount(value: float) -> tuple[str, str]:
    return f"{value:g}", f"{value / 10_000:g}"


@pytest.mark.parametrize("trio", list(itertools.combinations(CARDS, 3))[:6])
@pytest.mark.parametrize("form", ["{p} 一张", "大概 {p} 一张", "{w} 万"])
def test_each_card_keeps_its_own_purchase_price_in_chinese(trio, form):
    prices = [5_500, 19_000, 23_000]
    parts = [f"{said} " + form.format(p=_zh_amount(v)[0], w=_zh_amount(v)[1]) for (gid, said), v in zip(trio, prices)]
    req = _req("预算 8 万，想跑 Qwen2.5-32B 给 5 个同事用。行情：" + "，".join(parts) + "。推荐怎么配？")
    assert req.gpu_purchase_prices == {gid: v for (gid, _), v in zip(trio, prices)}
    assert req.num_gpus is None  # ('5500 一张' is a price per card, not one card)
    assert req.purchase_price is None  # (no single price stands for every card)


@pytest.mark.parametrize("trio", list(itertools.combinations(CARDS, 3))[:4])
def test_each_card_keeps_its_own_purchase_price_in_english_and_used_is_that_cards(trio):
    prices = [7_500, 6_800, 9_000]
    parts = [("used " if i == 2 else "") + f"{said} ${v / 1000:g}k each" for i, ((gid, said), v) in enumerate(zip(trio, prices))]
    req = _req("Options: " + ", ".join(parts) + ". budget $40k, serve Qwen2.5 72B for 10 users, what to buy?")
    assert req.gpu_purchase_prices == {gid: v for (gid, _), v in zip(trio, prices)}
    assert req.used_gpus == [trio[2][0]]


def test_hourly_rates_beside_cards_are_not_purchase_prices():
    req = _req("L4 $0.80/hr, A10 $1.00/hr, L40S $1.90/hr: which is cheapest to serve Llama 3.1 8B?")
    assert req.gpu_purchase_prices == {}
    assert req.gpu_rental_prices  # (the rental reader keeps them)


@pytest.mark.parametrize("host", ["主板 CPU 电源内存这些平台大概 1 万", "平台 1 万", "整机其他部分（主板 CPU 内存电源）平台约 1 万"])
def test_the_platform_price_is_the_host_and_the_whole_machine_fits_the_budget(host):
    # '整机也算进去' says the machine counts against the budget: it is no 8-GPU server
    q = ("预算 5 万以内（整机也算进去），想在办公室跑 Qwen2.5-32B 给 5 个同事用。行情：二手 3090 大概 5500 一张，"
         f"4090 1.9 万，5090 2.3 万，{host}。推荐怎么配？")
    req = _req(q)
    assert req.host_price_per_server == pytest.approx(10_000)
    assert not req.standard_server and req.nodes is None
    a = ask(q)
    plan = next(c for c in a.tool_calls if c.name == "plan_purchase").result
    top = plan["options"][0]
    price = {"rtx-3090": 5_500, "rtx-4090": 19_000, "rtx-5090": 23_000}[top["gpu"]]
    # total = cards at the user's price + the user's platform: n x price + 10,000
    assert top["total"] == pytest.approx(top["num_gpus"] * price + 10_000)
    assert top["total"] <= 50_000
    assert top["condition"] == ("used" if top["gpu"] == "rtx-3090" else "new")


# --- electricity over the run -----------------------------------------------------------------------------------------
RUNS = [("Llama 3.1 8B", "llama-3.1-8b", 8, "H100", "h100", 5e10, "50B"),
        ("Qwen2.5-7B", "qwen2.5-7b", 64, "A800 80G", "a800", 1e12, "1T"),
        ("Llama 3.1 70B", "llama-3.1-70b", 32, "A100 80GB", "a100-80gb-sxm", 2e11, "200B")]


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r[1])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_electricity_of_a_run_is_priced_over_the_run(run, lang):
    name, mid, n, said, gid, tokens, tok_said = run
    q = {"zh": f"{name} 预训练 {tok_said} tokens，{n} 张 {said}，电费多少？电价 0.8 元/度，PUE 1.3",
         "en": f"pretrain {name} on {tok_said} tokens with {n}x {said}: what is the electricity bill at $0.12/kWh, PUE 1.3?"}[lang]
    a = ask(q)
    timed = ask({"zh": f"{name} 预训练 {tok_said} tokens，{n} 张 {said}，要多久？",
                 "en": f"pretrain {name} on {tok_said} tokens with {n}x {said}: how long?"}[lang])
    hours = timed.figures["wall_hours"]
    assert a.figures["hours"] == pytest.approx(hours, rel=1e-6)  # the run's hours, not a default year of 8,760
    price = 0.8 if lang == "zh" else 0.12
    tdp = CAT.gpu(gid)[0].tdp_w
    # bill = GPUs x TDP (kW) x PUE x hours x price per kWh
    assert a.figures["electricity_full_load"] == pytest.approx(n * tdp / 1000 * 1.3 * hours * price, rel=1e-3)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("first,second", [(("H100", "h100"), ("4090", "rtx-4090")),
                                          (("A100 80GB", "a100-80gb"), ("H100", "h100"))])
def test_a_difference_asked_after_a_card_swap_prices_both_cards_of_the_thread(first, second, lang):
    turns = {"zh": [f"Llama 3.1 8B 继续预训练 50B tokens，8 卡 {first[0]} 大概多久？", f"换成 8 张 {second[0]} 呢",
                    "电费差多少，电价按 1 块一度"],
             "en": [f"continued pretraining of Llama 3.1 8B on 50B tokens, 8x {first[0]}: how long?",
                    f"what about 8x {second[0]}?", "what's the difference in electricity at $0.15/kWh?"]}[lang]
    history, answers = [], []
    for t in turns:
        a = ask(t, history=list(history))
        history.append(a.slots)
        answers.append(a)
    last = answers[-1]
    bills = {}
    gpus_priced = [c.args.get("gpu") for c in last.tool_calls if c.name == "time_train"]
    assert set(gpus_priced) >= {first[1], second[1]}
    price = 1.0 if lang == "zh" else 0.15
    for gid, timed in ((first[1], answers[0]), (second[1], answers[1])):
        tdp = CAT.gpu(gid)[0].tdp_w
        bills[gid] = 8 * tdp / 1000 * 1.3 * timed.figures["wall_hours"] * price
    diff = abs(bills[first[1]] - bills[second[1]])
    shown = f"{diff:,.0f}"
    assert shown in last.answer, (shown, last.answer[:600])


# --- the user's own training settings are kept; the usual changes are those the user has not ruled out ---------------
@pytest.mark.parametrize("said", ["grad checkpointing on", "gradient checkpointing enabled", "activation ckpt on",
                                  "开了梯度检查点"])
def test_checkpointing_written_any_usual_way_is_full_recomputation(said):
    assert _req(f"full fine-tune Qwen2.5-7B on 2x A100 80GB, seq 4096, {said}").recompute == "full"


@pytest.mark.parametrize("said", ["no CPU offload", "without offload", "不用 offload", "不卸载"])
def test_no_offload_is_read_and_no_offload_route_is_offered(said):
    q = f"Full fine-tune of Qwen2.5-7B, bf16 w/ AdamW, ZeRO-3, seq 4096, micro batch 1, {said}. how many A100 80GB?"
    req = _req(q)
    assert req.offload == "none"
    a = ask(q)
    assert not any(c.args.get("offload") in ("optimizer", "all") for c in a.tool_calls if c.name == "size_train")


@pytest.mark.parametrize("model", ["qwen2.5-7b", "llama-3.1-8b", "mistral-7b"])
@pytest.mark.parametrize("gpu,said", [("a100-80gb", "A100 80GB"), ("h100", "H100"), ("l40s", "L40S")])
def test_a_stated_optimizer_is_never_swapped_by_a_usual_change(model, gpu, said):
    # 'bf16 w/ AdamW' is the user's choice: an 8-bit AdamW is not offered as the change that makes it fit
    name = CAT.model(model)[0].name
    a = ask(f"full fine-tune {name}, bf16 mixed precision with AdamW, seq 4096, micro batch 1, on one {said}: does it fit?")
    assert not any(c.args.get("optimizer") == "adamw-8bit" for c in a.tool_calls if c.name == "size_train")
    assert "8-bit AdamW" not in a.answer
    b = ask(f"full fine-tune {name}, seq 4096, micro batch 1, on one {said}: does it fit?")
    if any(c.args.get("optimizer") == "adamw-8bit" for c in b.tool_calls if c.name == "size_train"):
        assert "8-bit AdamW" in b.answer  # (unstated, it is one of the usual changes, and named)


@pytest.mark.parametrize("model", ["llama-3.1-70b", "qwen2.5-72b"])
def test_a_stated_bf16_lora_is_not_swapped_for_qlora(model):
    name = CAT.model(model)[0].name
    a = ask(f"bf16 LoRA on {name}, one A100 80GB, seq 2048: does it fit?")
    assert not any(c.args.get("method") == "qlora" for c in a.tool_calls if c.name == "size_train")


# --- asks about words, answered from the tables that hold the facts ---------------------------------------------------
FORMAT_WORDS = {"nf4": "NF4", "q4_k_m": "Q4_K_M", "awq": "AWQ", "gptq": "GPTQ", "fp8": "FP8", "int8": "INT8"}


@pytest.mark.parametrize("pair", list(itertools.combinations(FORMAT_WORDS, 2)))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_is_one_format_the_same_as_another_gets_a_verdict_from_the_format_table(pair, lang):
    from tools.formats import FORMATS

    a, b = (FORMAT_WORDS[x] for x in pair)
    q = {"en": f"Llama 3.1 70B on one H100: how much VRAM in {a}? is {a} the same thing as {b}?",
         "zh": f"Llama 3.1 70B 一张 H100，{a} 要多少显存？{a} 跟 {b} 是一回事吗"}[lang]
    ans = ask(q)
    assert ("不是一回事" if lang == "zh" else "Not the same thing") in ans.answer
    for x in pair:  # each format's stored bits per weight, from the one table that knows them
        assert f"{FORMATS[x].bits:.2f}" in ans.answer


CARD_PAIRS = [("H100 PCIe", "H100 SXM", "h100-pcie", "h100"), ("A100 40GB", "A100 80GB", "a100-40gb", "a100-80gb"),
              ("H20", "H100", "h20", "h100"), ("RTX 4090", "RTX 4090 D", "rtx-4090", "rtx-4090d")]


@pytest.mark.parametrize("pair", CARD_PAIRS, ids=lambda p: f"{p[2]}-{p[3]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_is_one_card_the_same_as_another_names_the_spec_fields_that_differ(pair, lang):
    said_a, said_b, ga, gb = pair
    q = {"en": f"for serving a 70B model is {said_a} basically the same GPU as {said_b}?",
         "zh": f"部署 70B 的话 {said_a} 跟 {said_b} 是一回事吗"}[lang]
    req = _req(q)
    assert set(req.gpus) == {ga, gb}, (req.gpus, q)
    ans = ask(q)
    a, b = CAT.gpu(ga)[0], CAT.gpu(gb)[0]
    differs = [f for f in ("memory_gb", "memory_bandwidth_gbps", "bf16_dense_tflops", "nvlink_gbps", "tdp_w")
               if getattr(a, f) and getattr(b, f) and max(getattr(a, f), getattr(b, f)) / min(getattr(a, f), getattr(b, f)) > 1.10]
    if differs:
        assert ("不是同一种卡" if lang == "zh" else "Not the same card") in ans.answer
        for f in differs:  # each differing figure, as the GPU table holds it
            assert f"{getattr(a, f):g}" in ans.answer and f"{getattr(b, f):g}" in ans.answer
    else:
        assert ("基本是同一种卡" if lang == "zh" else "Effectively the same card") in ans.answer


@pytest.mark.parametrize("model", ["qwen3-235b-a22b", "deepseek-r1", "llama-3.1-405b", "deepseek-v3"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_what_full_fat_means_follows_the_models_published_format(model, lang):
    from tools.formats import FORMATS

    spec = CAT.model(model)[0]
    q = {"zh": f"{spec.name} 满血部署要几张 H20？另外 '满血' 到底是指 BF16 还是 FP8 也算？",
         "en": f"how many H20 for the full {spec.name}? and what does 'full-fat' mean: BF16, or does FP8 count?"}[lang]
    ans = ask(q)
    fmt = FORMATS[spec.native_precision]
    assert fmt.name.split(" (")[0] in ans.answer
    published_8bit = fmt.bits <= 8.5
    if lang == "zh":
        assert ("FP8 本身就是满血" in ans.answer) == published_8bit
    else:
        assert ("so FP8 is the full model" in ans.answer) == published_8bit


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", ["Llama 3.1 70B", "Qwen2.5 32B"])
def test_which_format_takes_less_memory_is_answered_by_memory(model, lang):
    q = {"zh": f"{model}，Q4_K_M 和 AWQ 4bit 哪个显存占用小？", "en": f"{model} on one H100: Q4_K_M or AWQ, which takes less VRAM?"}[lang]
    ans = ask(q)
    sizes = {a.ask: a.verdict.per_gpu_gb for a in ans.asks if a.verdict and a.verdict.per_gpu_gb}
    assert len(sizes) >= 2, (sizes, ans.answer[:400])
    small = min(sizes, key=sizes.get)
    assert (f"{small} 显存占用最小" if lang == "zh" else f"{small} takes the least memory") in ans.answer


# --- a smaller format offered on a card that cannot compute in it says so ---------------------------------------------
@pytest.mark.parametrize("card", [g.id for g in CAT.gpus if g.vendor == "NVIDIA" and g.fp8_dense_tflops is None
                                  and g.bf16_dense_tflops and g.memory_gb >= 40][:4])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_fp8_offered_on_a_card_without_fp8_tensor_cores_is_said_to_be_weight_only(card, lang):
    # 405B in bf16 does not fit one 8-card box of 40-80 GB cards; in 8 bits it may (405e9 x 1 B = 405 GB over 8)
    gpu = CAT.gpu(card)[0]
    q = {"en": f"can one 8-card {gpu.name} box run Llama 3.1 405B in bf16?",
         "zh": f"一台 8 卡 {gpu.name} 能跑 Llama 3.1 405B bf16 吗"}[lang]
    a = ask(q)
    fits = [line for line in a.answer.splitlines() if line.startswith(("**What does fit**", "**放得下的方案**"))]
    offered = fits and re.search(r"(?:in|用) fp8", fits[0])
    if offered:
        assert ("weight-only" in fits[0]), fits[0]


def test_fp8_is_not_offered_on_ascend_whose_8_bit_route_is_int8():
    a = ask("一台 8 卡 910B 能跑 Llama 3.1 405B bf16 吗")
    fits = next(line for line in a.answer.splitlines() if line.startswith("**放得下的方案**"))
    assert "用 fp8" not in fits and "用 int8" in fits


def test_the_a100_box_is_offered_fp8_weight_only_so_the_property_above_is_not_vacuous():
    a = ask("can one 8-card A100 80GB box run Llama 3.1 405B in bf16?")
    fits = next(line for line in a.answer.splitlines() if line.startswith("**What does fit**"))
    assert "in fp8 — weight-only" in fits


# --- memory on several GPUs gives the whole model's total, not one GPU's alone ----------------------------------------
@pytest.mark.parametrize("model,n,card", [("Mixtral 8x7B", 2, "L40S"), ("Llama 3.1 70B", 4, "A100 80GB"),
                                          ("Qwen2.5 72B", 2, "H100"), ("Llama 3.1 405B", 8, "H200")])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_memory_on_several_gpus_states_the_total(model, n, card, lang):
    q = {"en": f"how much VRAM does {model} need in fp16 on {n}x {card}?", "zh": f"{model} fp16 在 {n} 张 {card} 上要多少显存？"}[lang]
    a = ask(q)
    call = next(c for c in a.tool_calls if c.name in ("size_infer", "estimate_inference_memory")
                and c.result.get("num_gpus") == n)
    total = call.result["per_gpu_gb"] * n  # the whole need = one GPU's share x the GPUs it is split over
    assert f"{total:,.1f} GB" in a.answer
    assert f"{call.result['weights_total_gb']:,.1f} GB" in a.answer


# --- a memory question's follow-up keeps answering the memory; a default card swapped for the format says why -------
@pytest.mark.parametrize("model", ["llama 3.1 70b", "qwen2.5 72b", "llama 3.1 8b"])
@pytest.mark.parametrize("first,then", [("how much vram to run {m} fp16 inference, 4k context, 1 user", "what about FP8?"),
                                        ("{m} fp16 推理要多少显存，4k 上下文，1 个用户", "FP8 呢？")])
def test_a_memory_threads_follow_up_gives_the_memory_and_says_why_the_card_changed(model, first, then):
    a1 = ask(first.format(m=model))
    a2 = ask(then, history=[a1.slots])
    zh = "显存" in first
    call = next(c for c in a2.tool_calls if c.result.get("weights_total_gb") and c.result.get("precision") == "fp8")
    assert f"{call.result['weights_total_gb']:,.1f} GB" in a2.answer  # the FP8 weights, whole model
    assert ("没有 FP8 张量核心" if zh else "has no FP8 tensor cores") in a2.answer


# --- an expert-parallel layout is read and used, never taken for money -------------------------------------------------
@pytest.mark.parametrize("said,ep", [("ZeRO-1 + EP8", 8), ("EP=16", 16), ("expert parallel 4", 4), ("专家并行 8", 8),
                                     ("--expert-parallel-size 32", 32)])
def test_an_expert_parallel_size_is_read_as_the_layout(said, ep):
    req = _req(f"DeepSeek-V2-Lite 预训练 2T tokens，64 张 H800，{said}，显存够不够？")
    assert req.expert_parallel == ep
    assert req.budget is None


@pytest.mark.parametrize("ep", [2, 4, 8, 16, 64])
def test_the_stated_ep_sizes_the_memory_and_a_higher_ep_never_needs_more(ep):
    # each GPU holds experts/EP of every MoE layer: a larger EP holds fewer experts per GPU, never more memory
    q = f"pretrain DeepSeek-V2-Lite on 64x H800, ZeRO-1, EP{ep}, seq 4096: does memory fit?"
    a = ask(q)
    call = next(c for c in a.tool_calls if c.name == "size_train" and c.args.get("num_gpus") == 64)
    assert call.args.get("ep") == ep
    if ep < 64:
        b = ask(f"pretrain DeepSeek-V2-Lite on 64x H800, ZeRO-1, EP{ep * 2}, seq 4096: does memory fit?")
        other = next(c for c in b.tool_calls if c.name == "size_train" and c.args.get("num_gpus") == 64)
        assert other.result["per_gpu_gb"] <= call.result["per_gpu_gb"] + 1e-6


def test_ep_on_a_dense_model_is_named_as_ignored():
    a = ask("pretrain Llama 3.1 8B on 64x H800 with EP8: memory per GPU?")
    assert any(i.startswith("expert_parallel=8") for i in a.ignored)


# --- 'about the same wall clock as them, right?' is judged against the published run's duration ---------------------
@pytest.mark.parametrize("run_id,model_said,tokens_said,card", [("deepseek-v3", "a V3-sized MoE (DeepSeek-V3)", "15T", "H800"),
                                                                ("llama-3.1-405b", "Llama 3.1 405B", "15T", "H100")])
@pytest.mark.parametrize("n", [256, 2048, 16384])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_same_wall_clock_claim_is_judged_against_the_published_run(run_id, model_said, tokens_said, card, n, lang):
    from knowledge.runs import load_training_runs

    run = next(r for r in load_training_runs() if r.id == run_id)
    q = {"en": f"We'll train {model_said} on {tokens_said} tokens on {n} {card}s, about the same wall clock as them, right?",
         "zh": f"我们用 {n} 张 {card} 训 {model_said}，{tokens_said} tokens，跟他们差不多时间吧？"}[lang]
    a = ask(q)
    theirs = run.gpu_hours / run.num_gpus  # their wall clock = GPU-hours / GPUs
    assert a.figures["published_wall_hours"] == pytest.approx(theirs, rel=1e-3)
    ratio = a.figures["wall_hours"] / theirs
    assert a.figures["wall_ratio_to_published"] == pytest.approx(ratio, abs=0.01)
    near = 0.8 <= ratio <= 1.25
    yes, no = ("**对，差不多**", "**不对**") if lang == "zh" else ("**Yes, about the same**", "**No**")
    assert (yes if near else no) in a.answer


# --- a versioned family named without a size -------------------------------------------------------------------------
FAMILIES = [("qwen3", "Qwen3"), ("qwen2.5", "Qwen2.5"), ("gemma3", "Gemma 3"), ("llama-3", "Llama 3")]


@pytest.mark.parametrize("family,said", FAMILIES)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_count_for_a_family_without_a_size_asks_which_member_and_sizes_some(family, said, lang):
    members = [m for m in CAT.models if m.family == family]
    q = {"en": f"how many H100 do I need for {said}?", "zh": f"{said} 要几张 H100"}[lang]
    a = ask(q)
    if a.request.get("model"):
        pytest.fail(f"{said} read as {a.request['model']}: a family names no size")
    assert a.status == "needs_clarification"
    assert a.clarification and a.clarification.missing == ["model"]
    assert all(s in {m.name for m in members} for s in a.clarification.suggestions)
    for s in a.clarification.suggestions:  # the job on each suggested member, meanwhile
        assert f"- {s}: **" in a.answer


@pytest.mark.parametrize("family,said", [("qwen3", "Qwen3"), ("gemma3", "Gemma 3")])
@pytest.mark.parametrize("mac,gb", [("m4-pro-64gb", "Mac mini M4 Pro 64G"), ("m4-max-128gb", "Mac Studio M4 Max 128GB")])
def test_can_a_card_run_a_family_lists_each_member_that_fits(family, said, mac, gb):
    from assistant.plans.infer import fits_on

    a = ask(f"{gb} 能跑 {said} 吗？用 Q4_K_M 量化，速度大概多少")
    gpu = CAT.gpu(mac)[0]
    rows = [line for line in a.answer.splitlines() if line.startswith("| ") and " | 是 |" in line or " | 否 |" in line]
    assert rows, a.answer[:500]
    for m in CAT.models:
        if m.family != family:
            continue
        row = next((r for r in rows if r.startswith(f"| {m.name} |")), None)
        if row is None:
            continue  # (specialised members, e.g. vision or coder, are left out of the table)
        fits = fits_on(m, gpu, 1, "q4_k_m", 4096).fits
        assert (" | 是 |" in row) == bool(fits), row


@pytest.mark.parametrize("said", ["数据大概 10 亿", "语料 20 亿", "训练集约 5 亿条"])
def test_an_amount_of_data_in_yi_is_no_model_size(said):
    req = _req(f"帮我算下用 H20 训练 Qwen3 要多少张卡，{said}")
    assert req.model is None and req.family == "qwen3"


# --- a measured rate and a target: the count is the target over the measured rate ------------------------------------
@pytest.mark.parametrize("rate,target", [(2_400, 50_000), (1_100, 20_000), (5_000, 120_000), (900, 4_000)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_measured_rate_and_a_target_give_the_count_with_headroom(rate, target, lang):
    import math

    q = {"en": f"I measured {rate:,} tok/s on one H100 serving Llama 3.1 8B. We need {target:,} tok/s at peak. How many H100s?",
         "zh": f"实测一张 H100 跑 Llama 3.1 8B 是 {rate} tok/s，高峰要 {target} tok/s，要几张 H100？"}[lang]
    a = ask(q)
    need = math.ceil(target / rate)  # GPUs = target / measured rate per GPU, rounded up
    assert a.figures["units_needed"] == need
    if target / (need * rate) > 0.8:  # used above 80%: the count with 20% headroom is said too
        room = math.ceil(target / (0.8 * rate))
        assert f"**{room}**" in a.answer


@pytest.mark.parametrize("total,batch", [(2_400, 64), (1_100, 32), (6_000, 128)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_total_over_a_batch_claimed_as_each_users_speed_is_corrected(total, batch, lang):
    q = {"en": f"Measured: vLLM, Llama 3.1 8B, 1x H100, batch {batch} -> ~{total:,} output tok/s total. Peak we need is 50k "
               f"output tok/s. How many H100s? Also my coworker says users will see {total} tok/s each, is that right?",
         "zh": f"实测：vLLM，Llama 3.1 8B，1 张 H100，batch {batch} 时总吞吐约 {total} tok/s。高峰要 5 万 tok/s，要几张 H100？"
               f"同事说每个用户能看到 {total} tok/s，对吗？"}[lang]
    a = ask(q)
    per = total / batch  # each stream's share of the batch's total
    assert f"{per:,.1f}" in a.answer
    assert ("**不对**" if lang == "zh" else "**No**") in a.answer


# --- '24 小时满负荷跑' is a rate of use, not a 24-hour job ----------------------------------------------------------
@pytest.mark.parametrize("said", ["24 小时满负荷跑的话", "24小时不停跑", "24h 满载运行", "running 24 hours nonstop"])
def test_around_the_clock_is_full_use_not_a_day_long_job(said):
    req = _req(f"买卡还是租卡：8 卡 4090 整机报价 18 万，电费 1 元/度。4090 租 1.98 元/卡时。{said}多久回本？")
    assert req.utilization == 1.0 and req.hours_per_day == 24
    assert req.period_hours != 24


def test_break_even_around_the_clock_uses_the_users_power_and_prices():
    a = ask("买卡还是租卡：8 卡 4090 整机报价 18 万，整机满载功率 4kW，电费 1 元/度。AutoDL 上 4090 租 1.98 元/卡时。"
            "24 小时满负荷跑的话多久回本？")
    # months = price / (monthly rent of 8 cards − monthly power) = 180,000 / (8 × 1.98 × 730 − 4 × 1.3 × 730 × 1)
    months = 180_000 / (8 * 1.98 * 730 - 4 * 1.3 * 730 * 1.0)
    assert f"{months:.1f} 个月" in a.answer


# --- a what-if on the KV cache's format computes the job as stated and with the change --------------------------------
@pytest.mark.parametrize("q", ["Qwen2.5-72B-Instruct bf16，vLLM TP=4，4 张 H800 80G，max_model_len 32768。KV cache 能放多少 token？"
                               "最多能同时跑多少请求？kv-cache-dtype 改 fp8 呢？",
                               "Llama 3.1 70B on 2x H100, 8k context: how many concurrent users? what about an FP8 KV cache?"])
def test_a_kv_cache_what_if_is_both_and_the_weights_stay_as_stated(q):
    a = ask(q)
    kv = [x.request.get("kv_dtype") or "bf16" for x in a.asks]
    assert set(kv) == {"bf16", "fp8"}, kv
    assert all((x.request.get("precision") or "bf16") == "bf16" for x in a.asks)


@pytest.mark.parametrize("prompt,output", [(3072, 500), (1000, 200), (6000, 800)])
def test_concurrency_at_the_average_request_is_the_pool_over_it(prompt, output):
    a = ask(f"Qwen2.5-72B-Instruct bf16, vLLM TP=4, 4x H800, max_model_len 32768, average input {prompt} output {output}: "
            "how many requests at once?")
    call = next(c for c in a.tool_calls if c.result.get("vllm_kv_cache_tokens"))
    pool = call.result["vllm_kv_cache_tokens"]
    n = pool // (prompt + output)  # the KV pool over the average request's tokens: said in the headline, or beside it
    assert f"**{n:,}**" in a.answer or f"**Up to {n:,} concurrent sequences of {prompt + output:,} tokens**" in a.answer


# --- a bare size written as an MoE; a published run's headline cost questioned; a machine's rating and its average --
@pytest.mark.parametrize("said", ["671B MoE", "671B 的 MoE", "671b moe"])
def test_a_bare_size_written_as_an_moe_is_the_catalogs_moe_of_that_total(said):
    req = _req(f"我们如果也用 2048 张 H800 从头训一个同规模的（{said}，14.8T token），要多久？")
    spec = CAT.model(req.model)[0]
    assert spec.moe is not None and abs(spec.params_total / 671e9 - 1) <= 0.02


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_published_runs_headline_cost_questioned_names_what_it_covers(lang):
    from knowledge.runs import load_training_runs

    run = next(r for r in load_training_runs() if r.id == "deepseek-v3")
    q = {"zh": "DeepSeek-V3 技术报告说训练用了 278.8 万 H800 卡时，按 2 美元/卡时 = 557.6 万美元。我们用 2048 张 H800 训同规模的"
               "（671B MoE，14.8T token）要多久？成本真的就 560 万美元吗？",
         "en": "The DeepSeek-V3 report says 2.788M H800 GPU-hours at $2/hr = $5.576M. Training a same-size model (671B MoE) "
               "on 14.8T tokens with 2048 H800s: how long, and is $5.6M really all it cost?"}[lang]
    a = ask(q)
    assert ("**不是全部成本**" if lang == "zh" else "**Not the whole cost**") in a.answer
    assert f"${run.gpu_hours * 2 / 1e6:,.2f}M" in a.answer  # their GPU-hours x the $2 they assumed


def test_a_machines_rating_is_not_a_power_limit_and_its_average_share_is_used():
    a = ask("yearly electricity bill for 4 DGX H100 (10.2 kW max each) running at ~70% of max power on average, $0.12/kWh?")
    assert a.request["power_limit_w"] is None
    full = 4 * 10.2 * 1.3 * 8760 * 0.12  # 4 machines x 10.2 kW x PUE 1.3 x a year x $0.12
    assert a.figures["electricity_full_load"] == pytest.approx(full, rel=1e-3)
    assert a.figures["electricity_at_load"] == pytest.approx(0.7 * full, rel=1e-3)


@pytest.mark.parametrize("vendor", ["昇腾", "华为", "Ascend", "升腾"])
def test_a_vendor_word_between_a_count_and_its_card_keeps_the_count(vendor):
    q = f"部署 DeepSeek-R1 满血版，三个方案：两台 8卡 H20 96G、一台 8卡 H200、两台 8卡 {vendor} 910B 64G。怎么选？"
    a = ask(q)
    counts = {x.request.get("gpu"): x.request.get("num_gpus") for x in a.asks}
    assert counts.get("ascend-910b") == 16, counts


def test_a_chinese_comparison_with_a_card_barred_from_china_says_so():
    from tools.export_rules import barred_from_china

    a = ask("部署 DeepSeek-R1 满血版，三个方案：两台 8卡 H20 96G、一台 8卡 H200、两台 8卡 昇腾 910B 64G。怎么选？")
    barred = [CAT.gpu(x.request["gpu"])[0] for x in a.asks if barred_from_china(CAT.gpu(x.request["gpu"])[0])]
    assert barred and all(g.name in a.comparison for g in barred) and "出口管制" in a.comparison


# --- a short what-if after the question ('and at 16k?', '16k 呢？') is a second ask -----------------------------------
@pytest.mark.parametrize("q,second", [("Qwen2.5-32B-Instruct bf16 on 2x L40S (vllm tp=2). how many concurrent sessions at 4k "
                                       "tokens each? and at 16k?", 16384),
                                      ("Qwen2.5-32B bf16 两张 L40S，4k 上下文能同时跑几路？16k 呢？", 16384),
                                      ("Llama 3.1 8B on one L4, how many users at 2k context? and at 8k?", 8192)])
def test_a_short_what_if_is_answered_beside_the_question(q, second):
    a = ask(q)
    contexts = [x.request.get("context") for x in a.asks]
    assert len(contexts) == 2 and contexts[1] == second, contexts
    pools = [c.result.get("vllm_kv_cache_tokens") for c in a.tool_calls if c.result.get("vllm_kv_cache_tokens")]
    assert pools and f"**Up to {pools[0] // second:,} " in a.answer or f"**最多同时 {pools[0] // second:,} 路" in a.answer


@pytest.mark.parametrize("mem,gid", [("96G", "h20"), ("141G", "h200"), ("96GB", "h20")])
def test_an_o_for_zero_typo_with_its_memory_written_is_the_card_of_that_memory(mem, gid):
    req = _req(f"H2O {mem} 跑 Qwen3-235B-A22B 需要几张？")
    assert req.gpu == CAT.gpu(gid)[0].id and not req.unknown_gpu


def test_a_no_fit_answer_gives_each_lighter_formats_count():
    a = ask("H20 跑 Qwen3-235B-A22B 需要几张？")
    head = next(line for line in a.answer.splitlines() if line.startswith("**放不下**"))
    for p in ("bf16", "fp8", "int4"):
        assert p in head, head


@pytest.mark.parametrize("model,mem,n,fmt_bytes", [("llama-3.1-405b", 160, 4, 2), ("llama-3.1-70b", 60, 2, 2)])
def test_a_card_that_does_not_exist_is_also_checked_as_claimed(model, mem, n, fmt_bytes):
    spec = CAT.model(model)[0]
    a = ask(f"a reseller says their 'A100 {mem}GB' cards can run {spec.name} in FP16 on just {n} cards. legit?")
    need = spec.params_total * fmt_bytes / 1e9  # the weights alone: parameters x bytes per weight
    if need > n * mem:
        assert f"{n} × {mem} GB = {n * mem:,} GB is less than the {need:,.0f} GB" in a.answer


# --- a bare size as the alternative to a named model is the same family's member ------------------------------------
@pytest.mark.parametrize("q,ids", [("一张 L20 48G 撑 30 并发 8k，用 Qwen2.5-7B-Instruct 还是 14B？", ["qwen2.5-7b", "qwen2.5-14b"]),
                                   ("Llama 3.1 8B or 70B on one H100 for 10 users?", ["llama-3.1-8b", "llama-3.1-70b"])])
def test_a_bare_size_beside_a_named_model_is_its_familys_member(q, ids):
    a = ask(q)
    assert [x.request.get("model") for x in a.asks] == ids
    assert [x.ask for x in a.asks] == [CAT.model(i)[0].name for i in ids]  # each labelled by its name


# --- a measured total at a concurrency, carried to another card, and 'can it double?' -------------------------------
@pytest.mark.parametrize("card,cid", [("L40S", "l40s"), ("A100", "a100-80gb"), ("H100", "h100")])
@pytest.mark.parametrize("users,total", [(32, 1100), (16, 700)])
def test_a_measured_total_is_carried_at_its_concurrency_and_judged_against_double(card, cid, users, total):
    a = ask(f"同事实测：单卡 4090，vLLM 跑 Qwen2.5-7B-Instruct，{users} 并发，输出吞吐 {total} tok/s。换 {card} 能不能翻倍？")
    calls = [c for c in a.tool_calls if c.name == "time_infer"]
    assert calls and all(c.args["batch"] == users for c in calls)  # the estimates at the measured concurrency
    old = next(c for c in calls if c.args["gpu"] == "rtx-4090").result["decode_tokens_per_s_per_seq"]
    new = next(c for c in calls if c.args["gpu"] == CAT.gpu(cid)[0].id).result["decode_tokens_per_s_per_seq"]
    scaled = total * new / old  # the measurement x the estimates' ratio
    assert f"{scaled:,.1f} token/s" in a.answer
    bar = 2 * total
    verdict = "**正好卡在**" if abs(scaled / bar - 1) < 0.10 else "**达到**" if scaled >= bar else "**达不到**"
    assert verdict in a.answer  # (within 10% of the bar the estimate cannot call it, and says so)


# --- people times each one's rate is the load ---------------------------------------------------------------------------
@pytest.mark.parametrize("people,each,unit,q", [
    (200, 2, 60, "{p} 个客服坐席要用 Qwen3-8B，每人平均每分钟发 {e} 次请求，每次输入约 1500 token、输出约 300 token。用 4090 部署要几张？"),
    (120, 3, 60, "{p} agents use Qwen3-8B, each sending {e} requests per minute (1500 in, 300 out). How many 4090s?"),
    (500, 6, 3600, "{p} 个员工用 Qwen3-8B，每人每小时问 {e} 次，输入 1000 输出 200，要几张 L40S？")])
def test_people_times_each_ones_rate_is_the_request_rate(people, each, unit, q):
    a = ask(q.format(p=people, e=each))
    assert a.request["requests_per_s"] == pytest.approx(people * each / unit, rel=1e-3)  # people x rate / seconds
    assert a.intent == "serving" and not a.request.get("concurrent_users")


def test_a_latency_target_after_a_serving_plan_keeps_the_load():
    a1 = ask("200 个客服坐席要用 Qwen3-8B，每人平均每分钟发 2 次请求，每次输入约 1500 token、输出约 300 token。用 4090 部署要几张？")
    a2 = ask("如果要求首 token 延迟 < 1 秒呢", history=[a1.slots])
    assert a2.intent == "serving" and a2.request["ttft_s"] == 1
    assert a2.request["requests_per_s"] == pytest.approx(200 * 2 / 60, rel=1e-3)


# --- a model published in a lighter format: its own checkpoint's count is offered ----------------------------------
def test_a_model_asked_in_a_heavier_format_gets_its_published_formats_count():
    from assistant.plans.infer import fits_on

    a = ask("一张 H100 80G 用 fp16 能跑 DeepSeek-V3 吗？不行的话最少要几张？")
    line = next(x for x in a.answer.splitlines() if x.startswith("**放得下的方案**"))
    x = fits_on(CAT.model("deepseek-v3")[0], CAT.gpu("h100")[0], 1, "fp8", 4096)
    k = x.min_gpus if x.min_gpus <= 8 else -(-x.min_gpus // 8) * 8
    assert f"{k} 张 NVIDIA H100 80GB SXM5，用官方发布的 fp8" in line


# --- 'the small one', 'our office GPU' in a follow-up ---------------------------------------------------------------
@pytest.mark.parametrize("first,small", [("gpt-oss-120b", "gpt-oss-20b"), ("qwen3-32b", "qwen3-30b-a3b")])
def test_the_small_one_is_the_familys_next_member_down(first, small):
    name = CAT.model(first)[0].name
    a1 = ask(f"{name} on a single H100 80GB with vllm: how many concurrent users at 16k context?")
    a2 = ask("and the small one?", history=[a1.slots])
    assert a2.request["model"] == small


def test_our_office_gpu_in_a_follow_up_asks_which_card():
    a1 = ask("gpt-oss-120b on a single H100 80GB with vllm: how many concurrent users at 16k context?")
    a2 = ask("and the small one on our office GPU?", history=[a1.slots])
    assert a2.status == "needs_clarification" and a2.clarification.missing == ["gpu"]


@pytest.mark.parametrize("q", ["客户非要满血 DeepSeek-R1，不要蒸馏版。满血和 32B 蒸馏版硬件差多少？给个最低配置",
                               "满血 DeepSeek-R1 跟 32B 蒸馏版比，硬件要差多少？"])
def test_the_full_model_and_a_distill_compared_are_both_sized(q):
    a = ask(q)
    models = [x.request.get("model") for x in a.asks]
    assert models == ["deepseek-v3", "deepseek-r1-distill-qwen-32b"], models
    full = next(x for x in a.asks if x.request.get("model") == "deepseek-v3")
    assert full.request.get("precision") in (None, "fp8")  # (its own published FP8, not the distill's bf16)


@pytest.mark.parametrize("place", ["办公室", "家里", "本地"])
@pytest.mark.parametrize("people,n", [("几个人", 5), ("三四个人", 4), ("两三个同事", 3)])
def test_one_machine_at_the_office_is_no_8_gpu_server_and_a_few_people_are_a_team(place, people, n):
    req = _req(f"{place}只有普通 220V 16A 插座，想放一台机器跑 70B 模型（主要{people}内部用），买什么配置合适？")
    assert not req.standard_server and req.num_gpus is None
    assert (req.team_size or req.concurrent_users) == n


@pytest.mark.parametrize("q", ["hi, requirements are in the attached sheet. we're a chatbot startup, budget flexible. what GPUs "
                               "should we get?", "需求见附件，帮忙推荐下买什么卡", "see the doc for our specs — how many H100s?"])
def test_an_attachment_the_message_does_not_carry_is_said_and_its_figures_asked(q):
    a = ask(q)
    assert a.status == "needs_clarification"
    assert ("can't see the attachment" in a.answer) or ("看不到附件" in a.answer)
    assert a.intent != "out_of_scope"


@pytest.mark.parametrize("written,inp,out", [("$0.15 in / $0.60 out per 1M", 0.15, 0.60), ("$0.5 input, $1.5 output per 1M", 0.5, 1.5)])
def test_an_apis_two_prices_written_with_one_unit_are_read_and_each_size_is_judged(written, inp, out):
    q = f"what's our cost per million tokens if we self-host on H100s at $2.20/hr vs paying gpt-4o-mini ({written})?"
    req = _req(q)
    assert (req.reference_input_per_million, req.reference_per_million) == (inp, out)
    a = ask(q)
    assert a.clarification and a.answer.count("Against the API") == 2  # (the model asked, each size judged meanwhile)


@pytest.mark.parametrize("q", ["Q4_K_M、AWQ、GPTQ、FP8、NF4 这几个量化到底啥区别？我们要用 vLLM 多并发，选哪个？",
                               "what's the difference between Q4_K_M, AWQ and NF4? we serve many users with vLLM"])
def test_a_difference_between_formats_is_answered_from_the_format_table_with_the_vllm_pick(q):
    from tools.formats import FORMATS

    a = ask(q)
    zh = "区别" in q
    assert ("**区别**" if zh else "**The difference**") in a.answer
    line = next(x for x in a.answer.splitlines() if x.startswith(("**区别**", "**The difference**")))
    named = [f for f in ("q4_k_m", "awq", "gptq", "fp8", "nf4") if FORMATS[f].name.split(" (")[0] in line]
    served = sorted((FORMATS[f] for f in named if "vllm" in FORMATS[f].engines.lower() and FORMATS[f].family != "gguf"),
                    key=lambda f: -f.bits)
    pick = ("选 " if zh else "in vLLM: ") + served[0].name  # the most faithful format vLLM serves, from the table
    assert pick in line


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_count_to_buy_for_a_service_without_a_load_asks_the_peak_with_counts_by_load(lang):
    q = {"zh": "我们要上一个客服机器人，模型定了 Qwen2.5-72B-Instruct。上线要买几张 H20 才够用？",
         "en": "We're launching a customer-support chatbot on Qwen2.5-72B-Instruct. How many H20s do we need to buy?"}[lang]
    a = ask(q)
    assert a.status == "needs_clarification" and a.clarification.missing == ["concurrent_users"]
    for users in (10, 50, 200):
        assert (f"- {users} 路同时：**" if lang == "zh" else f"- {users} users at once: **") in a.answer


@pytest.mark.parametrize("rate,people", [(38, 150), (120, 40), (25, 300)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_vendors_rate_with_no_model_card_or_scope_is_asked_with_both_readings(rate, people, lang):
    import math

    q = {"en": f"vendor demo showed {rate} tokens/s on their box. we're ~{people} employees. is that enough for us?",
         "zh": f"厂商演示说他们的机器能跑 {rate} tokens/s，我们公司大概 {people} 个员工，够用吗？"}[lang]
    a = ask(q)
    assert a.status == "needs_clarification" and "throughput_scope" in a.clarification.missing
    # 5% of the people in flight at the low end; at the high end a working team's 25%, or a company's 10% past 100
    # people (tools.serve_load.peak_share: 150 staff -> 8-15, 40 -> 2-10, 300 -> 15-30)
    lo, hi = max(1, math.ceil(people * 0.05)), max(1, math.ceil(people * (0.25 if people <= 100 else 0.10)))
    assert f"{rate / hi:,.1f}-{rate / lo:,.1f}" in a.answer  # the total shared among them, each user's share
    assert f"{rate * lo:,.0f}-{rate * hi:,.0f}" in a.answer  # each user's rate times them, the total it implies


def test_a_pick_among_cards_where_only_one_has_a_price_says_so_not_cheapest():
    a = ask("choosing between 4x H100 PCIe and 4x H100 SXM (HGX) for serving llama 3.1 70b. whats actually different for us?")
    call = next(c for c in a.tool_calls if c.name == "recommend")
    priced = [o for o in call.result["options"] if o.get("cost") is not None]
    if len(priced) == 1 and len(call.result["options"]) > 1:
        assert "the only one with a price" in a.answer
    assert "Not the same card" in a.answer  # (what is different: the spec fields that differ)


@pytest.mark.parametrize("model,users,ctx_k", [("llama-3.1-8b", 100, 128), ("qwen2.5-7b", 1000, 32), ("llama-3.1-70b", 20, 64)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_claim_that_paged_attention_removes_the_kv_problem_is_answered_with_the_total(model, users, ctx_k, lang):
    from tools.infer_memory import kv_cache_bytes

    spec = CAT.model(model)[0]
    q = {"en": f"need to serve {spec.name} with {ctx_k}k token context per user, {users} users, on one RTX 4090. doable w/ "
               "paged attention right?",
         "zh": f"我们要做个 {spec.name} 的服务，{users} 并发，每个会话 {ctx_k}k 上下文，就用一张 4090。厂商说 vLLM 有 "
               "PagedAttention 显存不是问题，对吧？"}[lang]
    a = ask(q)
    per = kv_cache_bytes(spec, "bf16", ctx_k * 1024) / 1e9  # one conversation's KV, whole model
    # in flight: '1000 并发' is 1,000 at once; English '1000 users' with no word of concurrency is a user base whose
    # busiest moment is 5% of it, 50 (slots.USER_BASE_MIN, said in the answer); 100 and 20 users are in flight as written
    at_once = users if lang == "zh" or users < 1000 else math.ceil(users * 0.05)
    assert f"**{per * at_once:,.0f} GB**" in a.answer  # x the conversations at once: what paging cannot remove
    assert ("**不对**" if lang == "zh" else "**No**") in a.answer


@pytest.mark.parametrize("hours", [2, 10, 48])
def test_my_single_card_in_n_hours_is_the_job_on_that_card_judged_against_the_deadline(hours):
    a = ask(f"need to full fine-tune llama 3.1 8b on 5B tokens using my single rtx 4090 in about {hours} hours. what settings "
            "should i use?")
    assert a.intent == "training_time" and a.request["deadline_hours"] == hours and not a.request.get("period_hours")
    assert a.request["num_gpus"] == 1 and a.request["gpu"] == "rtx-4090"
    assert f"Deadline {hours} h" in a.answer


@pytest.mark.parametrize("prompt,output", [(6144, 200), (8000, 300), (3000, 100)])
def test_cards_compared_for_a_prefill_heavy_load_are_costed_per_request(prompt, output):
    a = ask(f"厂商说 H20 跑 Llama-3-70B 吞吐比 H100 还高 20%。我们是 RAG，平均输入 {prompt}，输出 {output}，主要是 prefill。H20 对我们划算吗？")
    costs = {}
    for x in a.asks:
        f, n = x.figures, x.request.get("num_gpus") or 1
        rps = 1 / (f["ttft_s"] / f["batch"] + output / f["decode_tokens_per_s_total"])  # prefill each + its decode share
        costs[x.ask] = f["price_per_gpu_hour"] * n / 3600 / rps * 1000  # per 1,000 requests
    best = min(costs, key=costs.get)
    assert f"**{best} 每个请求更便宜**" in a.comparison


@pytest.mark.parametrize("q,users", [("~$40k budget, want to selfhost llama 3.1 70b for internal use, ~20 users. what hardware should i buy?", 20),
                                     ("预算 30 万，部署 Qwen2.5-72B 给 10 个人同时用，买什么卡？", 10)])
def test_a_purchase_pick_shows_the_memory_behind_it(q, users):
    from tools.infer_memory import kv_cache_bytes

    a = ask(q)
    spec = CAT.model(a.request["model"])[0]
    kv = kv_cache_bytes(spec, "bf16", 4096) * users / 1e9  # the load's KV at the assumed 4,096-token context
    assert f"{kv:,.1f} GB" in a.answer
    assert ("Memory: weights" in a.answer) or ("显存：权重" in a.answer)


@pytest.mark.parametrize("said,avg,tail", [("avg context 4k, some go to 16k", 4096, 16384),
                                           ("平均上下文 8k，个别会到 32k", 8192, 32768),
                                           ("average 2k tokens, longest 8k", 2048, 8192)])
def test_an_average_context_with_longer_tails_sizes_the_load_at_the_average_and_the_limit_at_the_tail(said, avg, tail):
    a = ask(f"serving Llama 3.3 70B in fp8 on 4x H100 for 50 concurrent users, {said}. how many users fit?")
    r = a.request
    assert r["context"] == tail and r["prompt_len"] + (r.get("output_len") or 0) in (avg, r["prompt_len"]) and r["prompt_len"] <= avg
    assert f"--max-model-len {tail}" in a.answer


@pytest.mark.parametrize("engine", ["llama.cpp/ollama", "ollama", "llama.cpp"])
def test_a_runtime_named_beside_the_gguf_format_runs_only_the_gguf_format(engine):
    a = ask(f"serving Qwen2.5-72B on 2x A100 80GB to ~20 internal users. GGUF Q4_K_M ({engine}) vs AWQ vs FP8 — which format?")
    eng = {x.request["precision"]: x.request.get("engine") for x in a.asks}
    assert eng["q4_k_m"] in ("llamacpp", "ollama") and eng["awq"] == "vllm" and eng["fp8"] == "vllm", eng


@pytest.mark.parametrize("rate,target,batch", [(2400, 20000, 64), (1500, 12000, 32)])
def test_a_measurement_and_a_target_beside_another_card_carry_the_measurement_at_its_concurrency(rate, target, batch):
    import math

    a = ask(f"measured on one H100 with vLLM: llama 3.1 8B, {batch} concurrent requests, {rate:,} output tok/s total. we need "
            f"{target // 1000}k output tok/s aggregate at the same request mix. how many H100? and would H200s change that much?")
    h100, h200 = a.asks
    assert h100.figures["units_needed"] == math.ceil(target / rate)  # the target over the measured rate
    calls = [c for c in a.tool_calls if c.name == "time_infer" and c.args.get("batch") == batch]
    there = next(c for c in calls if c.args["gpu"] == "h100").result["decode_tokens_per_s_total"]
    here = next(c for c in calls if c.args["gpu"] == "h200").result["decode_tokens_per_s_total"]
    assert h200.figures["units_needed"] == math.ceil(target / (rate * here / there))  # measured x the estimates' ratio


def test_a_training_purchase_pick_shows_the_jobs_total_and_serving_on_the_same_machine():
    from assistant.plans.infer import fits_on

    a = ask("预算 50 万人民币以内，要能 LoRA 微调 Qwen2.5-72B，平时也拿来做推理。只能买国内合规能买到的卡，推荐什么配置？")
    top = next(c for c in a.tool_calls if c.name == "plan_purchase").result["options"][0]
    assert f"合计约 {top['per_gpu_gb'] * top['num_gpus']:,.0f} GB" in a.answer  # per GPU x the GPUs
    serve = fits_on(CAT.model("qwen2.5-72b")[0], CAT.gpu(top["gpu"])[0], top["num_gpus"], "bf16", 4096)
    assert f"BF16 权重 {serve.weights_total_gb:,.0f} GB，{'放得下' if serve.fits else '放不下'}" in a.answer


def test_each_format_named_in_a_difference_question_is_sized_and_the_most_faithful_that_fits_is_picked():
    from assistant.plans.infer import fits_on
    from tools.formats import FORMATS

    a = ask("Q4_K_M、AWQ、GPTQ、FP8、NF4 这几个量化到底啥区别？Llama-3.1-70B 每种大概占多少显存？")
    sized = {x.request["precision"]: x.verdict.per_gpu_gb for x in a.asks if x.intent == "inference_memory"}
    assert set(sized) == {"q4_k_m", "awq", "gptq", "fp8", "nf4"}
    spec, gpu = CAT.model("llama-3.1-70b")[0], CAT.gpu("a100-80gb")[0]
    fit = [f for f in sized if fits_on(spec, gpu, 1, f, 4096).fits]
    best = max(fit, key=lambda f: FORMATS[f].bits)  # the most bits per weight among those that fit
    assert f"**{best.upper()} 就够了**" in a.comparison


# --- W-derived (after W was measured) -----------------------------------------------------------------------------------
@pytest.mark.parametrize("written,total", [("4 台 8 卡 A800 80G（共 32 卡）", 32), ("2 台 8 卡 A800", 16), ("4 台 8 卡 A800", 32)])
def test_a_memory_clause_keeps_the_whole_count_of_servers_times_gpus(written, total):
    a = ask(f"Qwen2.5-72B 全参 SFT：{written}，ZeRO-3，bf16，seq 4096，数据 2 亿 token，租金 ¥8/卡·时。显存够不够？要跑多久？多少钱？")
    assert all(x.request.get("num_gpus") == total for x in a.asks), [(x.ask, x.request.get("num_gpus")) for x in a.asks]


def test_each_card_keeps_the_count_written_with_it_though_named_again_later():
    a = ask("vendor pitch: same money buys 64x H20 or 32x H100. they say H20 trains faster bc 96GB > 80GB. we're pretraining "
            "a 13B on 300B tokens. which one and how long would each take?")
    assert {x.request["gpu"]: x.request["num_gpus"] for x in a.asks} == {"h20": 64, "h100": 32}


@pytest.mark.parametrize("price,cur", [(15, "¥"), (2, "$")])
def test_a_published_run_redone_on_your_gpus_is_priced_at_your_rate(price, cur):
    from knowledge.runs import load_training_runs

    run = next(r for r in load_training_runs() if r.id == "deepseek-v3")
    unit = "卡时" if cur == "¥" else "GPU-hour"
    a = ask(f"DeepSeek-V3 技术报告说总共 2.788M H800 GPU hours。我们有 256 张 H800，照着训一个同规模的要多久？按 {cur}{price}/{unit} 算要多少钱？")
    est = next(c for c in a.tool_calls if c.name == "time_train" and c.args.get("num_gpus") == 256).result["gpu_hours"]
    assert f"{cur}{est * price:,.0f}" in a.answer and f"{cur}{run.gpu_hours * price:,.0f}" in a.answer


@pytest.mark.parametrize("q", ["Qwen3-32B BF16 推理，单卡 H20 96G 放得下吗？剩给 KV cache 的大概多少 G，能装多少 token？",
                               "Qwen3-32B bf16 on one H20: does it fit, and how much room is left for the KV cache?"])
def test_the_room_left_for_the_kv_cache_is_usable_less_weights_and_runtime(q):
    a = ask(q)
    call = next(c for c in a.tool_calls if c.result.get("usable_gb") and c.result.get("kv_cache_bytes_per_token"))
    r = call.result
    room = r["usable_gb"] - (r["per_gpu_gb"] - r["kv_cache_gb"])  # usable − weights and runtime
    assert f"{room:,.1f} GB" in a.answer
    assert f"{room * 1e9 / r['kv_cache_bytes_per_token']:,.0f} token" in a.answer


def test_rent_or_buy_over_the_write_off_years_at_the_stated_hours_a_day_and_a_price_that_includes_pue():
    a = ask("8 卡 H20 服务器买断 ¥110 万，按 3 年折旧；或者租同配置 ¥5/卡·时。我们每天跑推理大概 16 小时。电费 ¥0.8/度（已含 PUE），"
            "托管 ¥6000/月。买还是租？")
    r = a.request
    assert r["hours_per_day"] == 16 and r["pue"] == 1.0 and r["depreciation_years"] == 3
    work_h = 3 * 8760 * 16 / 24  # the write-off years' working hours
    assert f"¥{8 * 5 * work_h:,.0f}" in a.answer  # rent: 8 cards x ¥5 x the working hours
    # power at the wall: 8 x 400 W x (10.2 kW / 5.6 kW, the HGX server around the modules, DGX H100's rating) x PUE 1
    # (included in the price) x hours x ¥0.8
    power = 8 * 0.4 * 10.2 / 5.6 * 1.0 * work_h * 0.8
    own = 1_100_000 + 6000 * 36 + power  # the server, 36 months of hosting, the power
    assert f"¥{own:,.0f}" in a.answer


@pytest.mark.parametrize("said,n", [("50 人左右同时用", 50), ("20 个用户同时在线", 20), ("大概 8 个同事同时用", 8)])
def test_people_using_it_at_the_same_time_are_concurrent_users(said, n):
    assert _req(f"公司内部部署 Qwen2.5-72B，{said}，推荐啥配置？").concurrent_users == n


@pytest.mark.parametrize("q,family", [("can i fine tune llama on a 4090?", "llama"), ("qwen 能在 4090 上跑吗", "qwen"),
                                      ("can I run mistral on my 3090?", "mistral")])
def test_a_bare_family_on_one_desk_card_is_sized_as_the_member_one_card_runs(q, family):
    a = ask(q)
    spec = CAT.model(a.request["model"])[0]
    assert 3e9 <= spec.params_total <= 15e9 and not spec.moe, spec.id  # the ~8B member, not the cluster-sized flagship
    assert any("names no size" in w for w in a.warnings)


def test_the_full_model_asked_on_a_desk_card_stays_the_flagship():
    a = ask("满血 deepseek 能在 4090 上跑吗")
    assert a.request["model"] == "deepseek-v3"


@pytest.mark.parametrize("q", ["llama 3.1 8b on a single L40S. 1) single user decode tok/s in bf16? 2) same w/ fp8 weights? "
                               "3) how many users at 4k ctx can it hold (bf16 weights)?",
                               "Qwen2.5-7B 单卡 4090：1）bf16 单用户解码多少 tok/s？2）同样的问题，fp8 呢？3）4k 上下文能同时几路（bf16）？"])
def test_an_item_that_says_same_asks_the_question_before_it_with_its_change(q):
    a = ask(q)
    assert a.asks[0].intent == a.asks[1].intent == "inference_speed"
    assert [x.request.get("precision") for x in a.asks[:2]] == ["bf16", "fp8"]


@pytest.mark.parametrize("last", ["两个比，5 个人一起用 哪个合适", "which one is better for 5 people?"])
def test_which_is_better_after_a_card_swap_weighs_both_cards_of_the_thread(last):
    h = []
    for t in ["DeepSeek-R1-Distill-Qwen-32B，单卡 4090 能跑不？", "那 Mac M4 Max 128G 呢？速度大概多少"]:
        h.append(ask(t, history=list(h)).slots)
    a = ask(last, history=h)
    assert {x.request.get("gpu") for x in a.asks} == {"rtx-4090", h[-1]["gpu"]}


@pytest.mark.parametrize("q", ["老板让我们做 Qwen2.5 全参微调，预算 200 万，买 8 卡 H20 还是 8 卡 A800？", "Qwen3 要几张 H20",
                               "how many H100 do I need for Qwen2.5?"])
def test_a_which_member_answer_shows_no_empty_header_as_a_members_result(q):
    a = ask(q)
    assert a.status == "needs_clarification"
    # each member's line ('- Qwen2.5 14B: …'), whether its result is a bold headline or a per-card comparison
    lines = [x for x in a.answer.splitlines() if re.match(r"- (?:\*\*)?(?:Qwen|Llama|DeepSeek)[^:：]{0,40}[:：]", x)]
    assert lines and not any(x.rstrip().rstrip("*").endswith(("：", ":")) for x in lines), lines


@pytest.mark.parametrize("tokens,said", [(100e9, "100B tokens"), (20e9, "200 亿 token")])
def test_tokens_to_train_within_a_day_are_the_jobs_tokens_and_its_deadline(tokens, said):
    a = ask(f"帮我配一下训练参数：1 张 A100 80G，全参训练 Llama 3.1 8B，seq 4k，要一天内训完 {said}。")
    assert a.request["tokens"] == pytest.approx(tokens) and a.request["deadline_hours"] == 24
    assert a.intent == "training_time" and "期限 24 小时" in a.answer


@pytest.mark.parametrize("users,each", [(50, 30), (20, 15), (100, 25)])
def test_a_per_user_target_beside_a_quoted_total_is_a_target_not_a_claim(users, each):
    a = ask(f"blog post shows vLLM doing 12,000 tok/s with llama 3.1 8b on one H100. we need {users} users at {each} tok/s each "
            "so 1 H100 is plenty right?")
    r = a.request
    assert r["tokens_per_s_per_user"] == each and r["concurrent_users"] == users and not r.get("claimed_tokens_per_s")
    assert a.intent == "serving"


def test_a_qlora_jobs_stated_settings_are_used_by_its_memory_check_not_listed_unused():
    a = ask("QLoRA 微调 Qwen2.5-32B：NF4 + double quant，LoRA r=64 挂全部 linear，max seq 4096，per_device batch 1，grad accum 16，"
            "开 gradient checkpointing，paged_adamw_8bit，单卡 4090 24G。数据 5 万条，平均 1500 token，3 个 epoch。能跑吗？要多久？")
    ignored = " ".join(a.ignored)
    for k in ("lora_rank", "optimizer", "micro_batch", "precision"):
        assert not ignored.startswith(k) and f" {k}=" not in ignored and not any(i.startswith(k + "=") for i in a.ignored), a.ignored
    call = next(c for c in a.tool_calls if c.name == "size_train")
    assert call.args.get("lora_rank") == 64 and call.args.get("optimizer") == "paged-adamw-8bit"
