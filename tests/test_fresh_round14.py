"""Issue 24, fourteenth round: one place for each shared step. People become requests in flight through one helper
(tools.serve_load.peak_in_flight) wherever a head-count is turned into load; an offload is ruled out by the one
negation reader; a bare quant level ('Q4', 'Q8') means the same format in the checkpoint name and in the precision
(tools.formats.bare_quant). Every expected figure is worked by hand below."""
from __future__ import annotations

import math

import pytest

from assistant.readers import slots
from assistant.readers.rules import read
from assistant.service import ask
from tools.formats import bare_quant, weight_format
from tools.serve_load import peak_in_flight
from knowledge.catalog import default_catalog

CAT = default_catalog()


def _req(text: str):
    return read(text, CAT).request


# --- people -> requests in flight, one helper ---------------------------------------------------------------------------
@pytest.mark.parametrize("team, expected", [
    (10, 3),     # a team: 25% of 10 = 2.5, rounded up to 3 (never down: a half request still needs a slot)
    (30, 8),     # 25% of 30 = 7.5 -> 8
    (5, 2),      # 25% of 5 = 1.25 -> 2
    (2, 1),      # 25% of 2 = 0.5 -> 1 (at least one)
    (100, 25),   # the last size read as a team: 25
    (150, 15),   # a company past 100 people: 10% of 150 = 15
    (1000, 100), # 10% of 1,000 = 100
])
def test_a_team_becomes_its_busiest_moment_rounded_up(team, expected):
    n, share = peak_in_flight(team_size=team)
    assert n == expected and share == (0.25 if team <= 100 else 0.10)


@pytest.mark.parametrize("users, expected", [(1000, 50), (10_000, 500), (30, 2), (1, 1)])
def test_a_user_base_becomes_five_percent_in_flight(users, expected):
    # 5% of daily users at the peak hour: 1,000 -> 50; 10,000 -> 500; 30 -> 1.5 -> 2; 1 -> 0.05 -> 1
    assert peak_in_flight(daily_active_users=users) == (expected, 0.05)


def test_a_team_size_wins_over_a_user_count_and_no_people_is_an_error():
    assert peak_in_flight(team_size=40, daily_active_users=10_000)[0] == 10  # 25% of 40
    with pytest.raises(ValueError, match="team size or a number of daily users"):
        peak_in_flight()


@pytest.mark.parametrize("text, people", [
    ("we are a team of 10 engineers; serve qwen2.5-32b on L40S for all of us. how many cards?", 10),
    ("公司 30 个人内部用 Qwen2.5-32B，L40S 要几张？", 30),
])
def test_the_plan_for_a_team_sizes_the_same_peak_as_the_helper(text, people):
    a = ask(text)
    expected = math.ceil(people * 0.25)  # 10 -> 3, 30 -> 8
    assert a.status == "answered"
    assert (a.slots or a.request)["concurrent_users"] == expected


# --- an offload ruled out: the one negation reader ----------------------------------------------------------------------
@pytest.mark.parametrize("said", ["no CPU offload", "without offload", "without any offload", "disable offload",
                                  "disabling offload", "not using offload", "不用 offload", "不卸载", "不 offload",
                                  "不能 offload", "关闭 cpu offload", "no ZeRO/offload"])
def test_an_offload_said_not_to_be_used_is_ruled_out(said):
    assert slots.optimizer_and_sharding(f"full fine-tune llama 3.1 8b on 4x a100, {said}".lower())["offload"] == "none"


@pytest.mark.parametrize("said", ["mine OOMs w/o offload", "it crashes without offload", "it fails without offload"])
def test_a_failure_without_offload_is_no_rule_against_it(said):
    # each says what happens without it, which does not forbid it
    out = slots.optimizer_and_sharding(f"full fine-tune llama 3.1 8b on a 4090, {said}".lower())
    assert out.get("offload") != "none"


# --- a bare quant level ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("token, fid", [("Q2", "q2_k"), ("q3", "q3_k_m"), ("Q4", "q4_k_m"), ("q5", "q5_k_m"),
                                        ("Q6", "q6_k"), ("Q8", "q8_0"), ("Q4_K_M", None), ("Q9", None), ("4", None)])
def test_a_bare_level_names_the_usual_gguf_quant(token, fid):
    assert bare_quant(token) == fid
    if fid:
        assert weight_format(token).id == fid  # the format table reads the same spelling


@pytest.mark.parametrize("text, fid", [
    ("run qwen2.5 72b at Q4 on two 4090s", "q4_k_m"),
    ("Q8 llama 3.1 8b on a 3060 12GB?", "q8_0"),
    ("Q5 qwen2.5 14b 放得进 3060 吗", "q5_k_m"),
    ("qwen2.5 72b 用 Q2 能塞进一张 4090 吗", "q2_k"),
])
def test_the_checkpoint_and_the_precision_agree_on_a_bare_level(text, fid):
    r = _req(text)
    assert r.precision == fid and r.checkpoint_format == "gguf-" + fid


def test_a_quarter_is_no_quant_level():
    # 'Q4 2025' is the fourth quarter: no GGUF format and no 4-bit precision
    r = _req("our Q4 2025 plan: serve llama 3.1 70b in bf16 on 8x H100")
    assert r.checkpoint_format is None and r.precision == "bf16"
    assert slots.precision("budget for q4 2025, llama 3.1 8b").get("precision") is None


# --- the user's own measured step times the job -------------------------------------------------------------------------
@pytest.mark.parametrize("said, seconds", [
    ("2.4 s/step", 2.4), ("3.2s/it", 3.2), ("each step takes 850 ms", 0.85), ("step time is ~1.7s", 1.7),
    ("1.5 it/s", 1 / 1.5), ("一步 2.4 秒", 2.4), ("每步大概 3 秒", 3.0), ("每个 step 1.2s", 1.2), ("2.5 秒/步", 2.5),
])
def test_a_measured_step_is_read_in_its_units(said, seconds):
    assert slots.measured_step(said.lower())["measured_step_s"] == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["we need 2 steps a day", "每步都要检查", "an 8-step pipeline with 4 stages"])
def test_a_step_count_is_no_step_time(text):
    assert slots.measured_step(text.lower()) == {}


@pytest.mark.parametrize("text, hours", [
    # 128 × 2048 = 262,144 tokens a step; 2B tokens × 2 epochs = 4e9; 4e9 / 262,144 = 15,258.8 -> 15,259 steps;
    # × 11 s = 167,849 s = 46.6 h
    ("我们自己测的：Qwen2.5-7B 全参微调，8 张 A100，一步 11 秒，global batch 128 条 × 2048。数据 20 亿 token，训 2 个 epoch 要多久？",
     15_259 * 11 / 3600),
    # 64 × 4096 = 262,144 a step; 5e8 / 262,144 = 1,907.3 -> 1,908 steps; × 25 s = 47,700 s = 13.25 h
    ("Llama 3.1 8B LoRA on 4x A100 80GB, global batch 64, seq len 4096, we measured 25 s per step. how long for 500M tokens?",
     1_908 * 25 / 3600),
])
def test_a_measured_step_with_its_batch_times_the_job(text, hours):
    a = ask(text)
    assert a.status == "answered"
    assert a.figures["measured_scaled_hours"] == pytest.approx(hours, abs=0.01)
    assert f"{hours:,.1f}" in a.answer


def test_a_step_faster_than_the_cards_can_compute_is_refused():
    # 262,144 tokens in 2.4 s on 8 A100s = 13,653 tokens/s per GPU; 6 × 7.6e9 × 13,653 = 6.2e14 FLOP/s = 2.0× the
    # A100's 312 TFLOPS dense peak: no run reaches 100%
    a = ask("我们自己测的：Qwen2.5-7B 全参微调，8 张 A100，一步 2.4 秒，global batch 128 条 × 2048。数据 20 亿 token，训 2 个 epoch 要多久？")
    assert "没有采用" in a.answer and a.figures["measured_run_rejected"] == 1
    assert a.figures["measured_implied_mfu"] > 1.5


def test_a_step_without_its_batch_asks_for_the_batch():
    a = ask("trainer shows 3.2s/it for llama 3.1 8b lora on 2x 4090. 300M tokens, how long?")
    assert a.status == "needs_clarification" and a.clarification.missing == ["global_batch"]
    # at 8 sequences of 2,048: 3e8 / 16,384 = 18,310.5 -> 18,311 steps × 3.2 s = 58,595 s = 16.3 h
    assert "18,311 steps × 3.2 s = **16.3 h**" in a.answer


@pytest.mark.parametrize("text", [
    "our Llama 3.1 8B LoRA run took 6.5 h for 300M tokens on 4x A100 80GB. how long for 1.2B tokens on the same 4 cards?",
    "our last run: 300M tokens took 6.5h on 4x A100 80GB (llama 3.1 8b lora). how long would 1.2B tokens take?",
])
def test_an_hours_symbol_is_the_measured_runs_length(text):
    # 1.2B / 300M = 4× the tokens on the same cards: 6.5 h × 4 = 26 h
    a = ask(text)
    assert a.figures["measured_scaled_hours"] == pytest.approx(26.0, rel=0.02)
    assert "measured: 300M tokens took 6.5 h" in a.answer


@pytest.mark.parametrize("text, gpus", [("rent 8 h100 for llama 70b lora", 8), ("5 h100s at $2/h for a week", 5)])
def test_an_h_before_a_card_name_is_no_hour(text, gpus):
    r = _req(text)
    assert r.num_gpus == gpus and r.period_hours in (None, 168.0)


# --- LoRA time: the forward runs once unless memory needs checkpointing -------------------------------------------------
def _lora_and_full(model_id: str, gpu_id: str, n: int, method: str = "lora"):
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    model, gpu = CAT.model(model_id)[0], CAT.gpu(gpu_id)[0]
    run = lambda m: estimate_training_time(TrainingTimeRequest(model=model, gpu=gpu, num_gpus=n, tokens=1e9,  # noqa: E731
                                                               method=m, seq_len=2048))
    return run(method), run("full")


def test_lora_with_room_for_its_activations_is_about_two_thirds_of_full_fine_tuning():
    # 8B on 4x A100 80GB: the frozen bf16 weights (16 GB) and one 2,048-token sequence's activations fit, so no
    # recomputation: LoRA is 4·N·D (forward 2, input gradients 2) against full fine-tuning's 6·N·D, 4/6 = 0.67 of the
    # time (attention and the same MFU on both sides keep it near that)
    lora, full = _lora_and_full("llama-3.1-8b", "a100-80gb", 4)
    assert 0.6 <= lora.wall_hours / full.wall_hours <= 0.72
    assert any("recomputation none" in a for a in lora.assumptions)


def test_lora_that_needs_checkpointing_to_fit_pays_the_second_forward():
    # 70B QLoRA on one 48 GB L40S: ~40 GB of 4-bit weights leaves no room for a sequence's activations without
    # checkpointing, so the forward runs twice: 4·N·D + 2·N·D = 6·N·D, the same FLOPs as full fine-tuning
    qlora, _ = _lora_and_full("llama-3.1-70b", "l40s", 1, "qlora")
    assert any("recomputation full" in a for a in qlora.assumptions)


# --- a stated horizon is the write-off period ---------------------------------------------------------------------------
def test_owning_per_working_hour_is_written_off_over_the_users_horizon():
    import re

    a = ask("rent vs buy 8x H100 SXM over 3 years? we'd keep them busy ~60% of the time")
    price = float(re.search(r"buying at \$([\d,]+) per GPU", a.answer).group(1).replace(",", ""))
    # capital over the 3 years' working hours: price / (3 × 8,760 × 0.6); hosting $150 a GPU-month / (730 × 0.6);
    # power at the wall: 0.7 kW TDP × 10.2 / 5.6 (its share of the 8-GPU server, DGX H100's rating) = 1.275 kW ×
    # PUE 1.3 × $0.12 = $0.1989 per working hour; no resale credited
    wall_kw = 0.7 * 10.2 / 5.6
    per_hour = price / (3 * 8760 * 0.6) + 150 / (730 * 0.6) + wall_kw * 1.3 * 0.12
    assert f"${per_hour:,.2f} per working GPU-hour" in a.answer
    assert "3-year horizon" in a.answer
    # break-even utilization over 3 years: (price / (3 × 8,760) + 150 / 730) per calendar hour over (rent - power)
    rent = float(re.search(r"matches renting at \$([\d.]+)", a.answer).group(1))
    u = (price / (3 * 8760) + 150 / 730) / (rent - wall_kw * 1.3 * 0.12)
    assert f"**{u:.0%} utilization**" in a.answer
    # the market still pays the default curve at 36 months: 70% - (70% - 20%) × 3/4 = 32.5% of 8 cards
    back = 8 * price * (0.7 - 0.5 * 0.75)
    assert f"(${back:,.0f} back)" in a.answer


# --- a card named by its memory alone ------------------------------------------------------------------------------------
@pytest.mark.parametrize("size, named", [("24GB", "rtx 4090"), ("16GB", "rtx 4070 ti super")])
def test_a_card_named_by_memory_is_timed_as_the_middle_card_of_that_size(size, named):
    # 24 GB NVIDIA cards in the table, by bandwidth: L4 300, A10/A10G 600, 3090 936, 3090 Ti/4090/4090D 1,008, 5090D v2
    # 1,344 GB/s: the middle one is an RTX 4090-class 1,008 GB/s; a token's decode is bandwidth-bound, so the speed is
    # that card's, and the answer says the range
    a = ask(f"how fast is llama 3.1 8b q4 on a {size} card")
    b = ask(f"how fast is llama 3.1 8b q4 on an {named}")
    assert a.status == "answered"
    assert a.figures["decode_tokens_per_s_per_seq"] == pytest.approx(b.figures["decode_tokens_per_s_per_seq"], rel=0.01)
    assert "decode speed scales with it" in a.answer and "no bandwidth given" not in a.answer


def test_a_moe_offload_on_a_card_named_by_memory_is_answered_not_refused():
    a = ask("Mixtral 8x7B in 4-bit on a 24GB card + 64GB system RAM - does it fit? how fast?")
    assert a.status == "answered" and "tokens/s" in a.answer


@pytest.mark.parametrize("text, batch, seq", [
    ("full FT of Llama-3.1-8B on 8x A100, global batch 64 seqs x 4096 tokens. dataset 1.2B tokens", 64, 4096),
    ("full FT of Llama-3.1-8B on 8x A100, global batch 64 x 4096. dataset 1.2B tokens", 64, 4096),
    ("Qwen2.5-7B 全参，8 张 A100，global batch 128 条 × 2048，数据 12 亿 token", 128, 2048),
    ("llama 3.1 8b full ft on 8x a100, batch size 32 x 8k, dataset 1.2B tokens", 32, 8192),
])
def test_a_batch_written_as_sequences_times_length_is_both_and_the_dataset_is_kept(text, batch, seq):
    r = _req(text)
    assert (r.global_batch, r.seq_len, r.tokens) == (batch, seq, 1.2e9 if "1.2B" in text else 1.2e9)


@pytest.mark.parametrize("text", ["lora on 2 x 4090, batch 8", "batch 16 x 8 gpus, llama 8b lora"])
def test_a_card_count_after_a_times_sign_is_no_sequence_length(text):
    assert _req(text).seq_len is None


def test_a_measured_step_moved_to_other_cards_is_scaled_from_the_cards_it_was_taken_on():
    a = ask("we measured 11.5 s/step on 8x A100 80GB doing full FT of Llama-3.1-8B, global batch 64 seqs x 4096 tokens "
            "(packed).\ndataset is 1.2B tokens and we do 2 epochs. how long will the run take? and if we move to 8x H100 SXM?")
    # 1.2B × 2 epochs = 2.4e9 tokens / (64 × 4,096 = 262,144) = 9,155.3 -> 9,156 steps × 11.5 s = 105,294 s = 29.2 h
    assert "9,156 steps × 11.5 s = **29.2 h" in a.answer
    assert a.asks[0].figures["measured_scaled_hours"] == pytest.approx(9_156 * 11.5 / 3600, abs=0.01)
    # on H100 the step is the A100 step scaled by the estimates' ratio (H100 is 2-3.5x an A100 in BF16): never the
    # A100's 11.5 s as if measured on the H100s
    h100 = a.asks[1].figures["measured_scaled_hours"]
    assert 29.2 / 3.5 < h100 < 29.2 / 1.8
    assert "11.5 s per 262,144-token step on 8× NVIDIA A100 80GB SXM4" in a.answer
    assert "duration" not in a.answer


# --- a tight 16-bit fit names the 8-bit weights' room -------------------------------------------------------------------
def test_a_bf16_fit_with_room_for_a_few_chats_says_what_fp8_weights_would_hold():
    a = ask("qwen3-32b on a single H100 80GB w/ vLLM - does it even fit in bf16? how many concurrent 8k-token chats can "
            "it hold, and what tok/s does one user get?")
    # BF16: 65.5 GB of weights in vLLM's 76.2 GB budget leaves ~8 GB: 3 chats of 8,192 × 256 KiB = 2.15 GB.
    # FP8 weights: 32.8 GB, so ~76.2 - 32.8 - ~3 GB workspace ≈ 40 GB / 2.15 GB ≈ 18 chats
    assert "**Tight in BF16**: 3 sequence(s)" in a.answer
    n = a.asks[0].figures["fp8_weights_max_batch"]
    assert 15 <= n <= 20


def test_a_roomy_bf16_fit_adds_no_such_line():
    a = ask("does llama 3.1 8b fit in bf16 on one H100 at 8k context?")
    assert "Tight in BF16" not in a.answer


# --- GPU-hours used a month, against buying ------------------------------------------------------------------------------
@pytest.mark.parametrize("text, hours, card", [
    ("our fine-tuning use is roughly 200 H100-GPU-hours a month", 200, "h100"),
    ("we use about 300 A100 hours a month on runpod", 300, "a100-80gb"),
    ("我们每个月大概用 500 卡时的 A100", 500, "a100-80gb"),
    ("每月大约 1.2万 卡时", 12_000, None),
    ("about 50 GPU-hours per week", 50 * 730 / 168, None),
])
def test_gpu_hours_used_a_period_are_usage_not_a_count(text, hours, card):
    r = _req(text)
    assert r.usage_gpu_hours_per_month == pytest.approx(hours) and r.usage_gpu == card
    assert r.num_gpus != round(hours)


@pytest.mark.parametrize("text", ["we run 8 gpus 12 hours a day", "rent 8x h100 at $2 per gpu hour for a month",
                                  "4090 租金每卡时 2 元，每月 730 小时"])
def test_a_count_with_its_hours_or_a_price_per_gpu_hour_is_no_usage(text):
    assert _req(text).usage_gpu_hours_per_month is None


def test_buying_against_the_hours_rented_now_pays_back_by_the_saving():
    a = ask("我们每个月大概用 500 卡时的 A100（租的，每卡时 8 元）跑推理，买一台 4 卡 4090 的机器（8 万）多久回本？")
    # rent 500 × ¥8 = ¥4,000 a month. Inference is bandwidth-bound: A100 80GB SXM 2,039 GB/s / 4090 1,008 = 2.023, so
    # 1,011 4090-hours a month; power 1,011.4 × 0.45 kW × PUE 1.3 × ¥0.7 = ¥414; a desk card, no hosting.
    # saving ¥3,586 a month; ¥80,000 / 3,586 = 22.3 months
    assert a.figures["rent_per_month"] == 4000
    assert a.figures["payback_months"] == pytest.approx(80_000 / (4000 - 500 * 2039 / 1008 * 0.45 * 1.3 * 0.7), abs=0.1)
    assert "22 个月" in a.answer


def test_a_payback_past_the_cards_life_says_keep_renting_and_the_usage_that_would_pay():
    a = ask("thinking of buying an 8x RTX 5090 rig (~$35k all-in) instead of renting 8x H100 at $2.20/GPU-hr. our "
            "fine-tuning use is roughly 200 H100-GPU-hours a month. payback period?")
    h100, r5090 = CAT.gpu("h100")[0], CAT.gpu("rtx-5090")[0]
    ratio = h100.bf16_dense_tflops / r5090.bf16_dense_tflops  # training is compute-bound: dense BF16 peaks
    power = 200 * ratio * r5090.tdp_w / 1000 * 1.3 * 0.12  # PUE 1.3, $0.12/kWh
    months = 35_000 / (200 * 2.20 - power)  # $440 of rent a month, less the rig's power; no hosting for desk cards
    assert a.figures["payback_months"] == pytest.approx(months, abs=0.1)
    assert months > 48 and "keep renting" in a.answer
    assert "$35,000 per GPU" not in a.answer and len(a.asks) == 0


# --- a compute budget's Chinchilla-optimal model --------------------------------------------------------------------------
@pytest.mark.parametrize("text, n, gpu, hours, mfu", [
    ("we have 256 H100s for 30 days. what's the biggest dense model we can train Chinchilla-optimally, and on how many "
     "tokens?", 256, "h100", 720, 0.40),
    ("我们有 64 张 A800，用两个月，从头预训练最大能训多大的模型（按 chinchilla）？", 64, "a800", 1460, 0.45),
])
def test_a_compute_budget_gives_the_chinchilla_optimal_size(text, n, gpu, hours, mfu):
    # C = GPUs × dense BF16 peak × MFU × seconds; N = sqrt(C / 120) (C = 6·N·D, D = 20·N), D = 20·N.
    # 256 H100 × 989.4 TFLOPS × 0.40 × 720 h × 3,600 = 2.63e23 -> N = 46.8B, D = 0.94T
    peak = CAT.gpu(gpu)[0].bf16_dense_tflops
    c = n * peak * 1e12 * mfu * hours * 3600
    a = ask(text)
    assert a.figures["compute_budget_flops"] == pytest.approx(c, rel=0.01)
    assert a.figures["optimal_params"] == pytest.approx((c / 120) ** 0.5, rel=0.01)
    assert a.figures["optimal_tokens"] == pytest.approx(20 * (c / 120) ** 0.5, rel=0.01)
    assert "not used" not in a.answer.lower() and "未使用" not in a.answer


# --- a count named for the options is each option's count ---------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "need to LoRA-finetune Llama 3.1 70B. ~30M tokens of data, 2 epochs. we'll rent. 8x H100 or 8x A100 80GB - which is "
    "cheaper overall?",
    "Llama 3.1 70B LoRA，3000 万 token，2 个 epoch，租 8 张 H100 还是 8 张 A100 80G 更便宜？",
])
def test_options_named_with_a_count_are_priced_at_that_count(text):
    a = ask(text)
    call = next(c for c in a.tool_calls if c.name == "recommend")
    assert {o["num_gpus"] for o in call.result["options"]} == {8}
    # 70B LoRA: bf16 frozen weights 141 GB over 8 GPUs hold it, so no option needs more than the 8 named
    assert "GPU count 8" not in a.answer and "卡数 8" not in a.answer


# --- an even split of input and output -----------------------------------------------------------------------------------
@pytest.mark.parametrize("said", ["输入输出差不多一半一半", "输入和输出各一半", "half input, half output", "input and output about equal"])
def test_an_even_split_is_one_input_token_per_output_token(said):
    assert _req(f"每天 5000 万 token（{said}），qwen2.5-72b，api 输入 4 元/百万、输出 12 元/百万").input_output_ratio == 1.0


def test_the_api_bill_at_an_even_split_and_the_reasons_to_self_host_anyway():
    a = ask("自建还是调API？我们每天大概5000万token（输入输出差不多一半一半），模型是Qwen2.5-72B，阿里云百炼上价格大概输入4元/百万、"
            "输出12元/百万")
    # 25M input × ¥4 + 25M output × ¥12 = ¥100 + ¥300 = ¥400 a day
    assert a.figures["api_per_day"] == 400
    assert "数据不能出内网" in a.answer


# --- a quoted run's card is not the job's ---------------------------------------------------------------------------------
def test_a_card_in_a_quoted_sentence_is_not_the_users_card():
    r = _req("看到有人说 Megatron 在 H100 上训 70B 能到 MFU 50% 以上。我们是 16 台 A800（128 卡），训 Llama 架构 70B，500B token，"
             "按 MFU 50% 算要多久？这个 50% 靠谱吗？")
    assert (r.gpu, r.gpus, r.num_gpus) == ("a800", ["a800"], 128)


def test_a_stated_mfu_asked_about_is_set_against_the_cards_band():
    a = ask("看到有人说 Megatron 在 H100 上训 70B 能到 MFU 50% 以上。我们是 16 台 A800（128 卡），训 Llama 架构 70B，500B token，"
            "按 MFU 50% 算要多久？这个 50% 靠谱吗？")
    # 6 × 70e9 × 500e9 = 2.1e23 FLOPs (+ attention) / (128 × 312e12 × 0.50) = 5.26e6 s ≈ 61 days before attention and
    # layout overheads; the answer's own hours at 50% scale by 50/45 at the A100-class usual 45%
    h50 = a.figures["wall_hours"]
    assert a.figures["hours_at_typical_mfu"] == pytest.approx(h50 * 0.50 / 0.45, rel=0.01)
    assert "先用小规模实测" in a.answer


def test_a_plan_over_the_latency_target_offers_fp8_on_a_card_that_computes_it():
    a = ask("We need 20 users at >=40 tok/s each with ~3k-token prompts, Llama 3.1 8B on one L40S. is one enough?")
    assert "Not within the latency targets" in a.answer and "**In FP8:" in a.answer


# --- R1 and its distills named the short way ------------------------------------------------------------------------------
@pytest.mark.parametrize("text, models", [
    ("满血版R1和蒸馏版32B，在单机八卡4090上分别能不能跑？", ["deepseek-v3", "deepseek-r1-distill-qwen-32b"]),
    ("R1 满血版 和 14B 蒸馏版 哪个能在一张 4090 上跑", ["deepseek-v3", "deepseek-r1-distill-qwen-14b"]),
    ("full R1 (671B) vs the distilled 70b on 8x H100?", ["deepseek-v3", "deepseek-r1-distill-llama-70b"]),
])
def test_r1_beside_full_or_distilled_is_deepseeks(text, models):
    r = _req(text)
    assert r.models[:2] == models


def test_full_means_each_models_own_published_format():
    a = ask("满血版R1和蒸馏版32B，在单机八卡4090上分别能不能跑？")
    # R1's published weights are FP8 (671B × 1 B ≈ 673 GB: not on 8 × 24 GB); the Qwen-32B distill's are BF16
    assert [x.request["precision"] for x in a.asks] == ["fp8", "bf16"]
    assert a.asks[0].figures.get("fits") in (0, False) or "放不下" in a.answer


def test_a_card_price_and_a_rent_asked_together_show_both():
    a = ask("4090现在一张大概多少钱？租的话一小时多少？")
    assert "新卡购买" in a.answer and "按需租用" in a.answer


def test_a_mac_too_small_for_4_bit_names_the_low_bit_files_that_load_and_their_speed():
    import re

    a = ask("Can a Mac Studio M2 Ultra 192GB run Llama 3.1 405B? which quant, and how fast would it be")
    # Q4_K_M: 405B × 4.84 bits / 8 ≈ 246 GB (+ KV): no. IQ2_XXS ~2.06 bits: 405e9 × 2.06 / 8 ≈ 104 GB + KV and buffers,
    # under the ~155 GB macOS gives the GPU by default; decode ceiling 0.8 × 800 GB/s / size
    m = re.search(r"IQ2_XXS (\d+) GB: loads as is, ~([\d.]+) tokens/s", a.answer)
    assert m and 100 <= int(m.group(1)) <= 115
    assert float(m.group(2)) == pytest.approx(0.8 * 800 / int(m.group(1)), rel=0.02)
    assert "Q4_K_M" in a.answer and "iogpu.wired_limit_mb" in a.answer


# --- one card, none named: the memory tiers, and the card asked ---------------------------------------------------------
def test_one_card_with_none_named_asks_which_and_shows_the_formats_by_memory():
    a = ask("70B的模型能单卡跑吗？要量化到几bit？")
    assert a.status == "needs_clarification" and a.clarification.missing == ["gpu"]
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[3:9]]
            for line in a.answer.splitlines() if line.startswith("| ") and "GB" not in line.split("|")[1]}
    # BF16: 140 GB + 1.34 GB KV (4k) + 2 GB = 143.3 GB; a 141 GB card has 141 GiB = 151.4 GB: 95% -> tight; 96 GB no
    assert rows["BF16"][5] == "很紧" and rows["BF16"][4] == "✗"
    # AWQ 4-bit ~39 GB + 3.3 = 42.3 GB: within 90% of 48 GiB (51.5 GB) -> yes; over 97% of 32 GiB (34.4 GB) -> no
    awq = next(v for k, v in rows.items() if k.startswith("AWQ"))
    assert awq[2] == "✓" and awq[1] == "✗"


def test_a_named_card_is_not_asked_for():
    a = ask("70B的模型能在一张 H100 上跑吗？要量化到几bit？")
    assert a.status == "answered" and "用哪张卡" not in a.answer


def test_a_max_batch_with_no_length_asks_for_it_with_the_batch_by_length():
    a = ask("what's the max batch size I can run on an H100 for llama 3.1 8B?")
    assert a.status == "needs_clarification" and a.clarification.missing == ["context"]
    rows = {line.split("|")[1].strip(): (int(line.split("|")[2].replace(",", "")), int(line.split("|")[3].replace(",", "")))
            for line in a.answer.splitlines() if line.startswith("| ") and line.split("|")[1].strip()[:1].isdigit()}
    # the KV pool is fixed, so the batch halves as the length doubles, and FP8 KV doubles it: 128 KiB per token in BF16
    assert rows["2,048"][0] == pytest.approx(2 * rows["4,096"][0], abs=1)
    assert rows["8,192"][1] == pytest.approx(2 * rows["8,192"][0], abs=1)
    pool = rows["1,024"][0] * 1024 * 128 * 1024 / 1e9  # GB of KV the pool holds at 1k: ~58 GB of the H100's 76 GB budget
    assert 50 <= pool <= 62


def test_a_max_batch_with_its_length_is_answered():
    a = ask("max batch size on an H100 for llama 3.1 8B at 4k context?")
    assert a.status == "answered"


# --- a first-token target with no load: asked, and checked against one request -----------------------------------------
def test_a_count_with_a_first_token_target_and_no_load_asks_for_the_load():
    a = ask("我们要把Qwen2.5-32B部署给客户用，要求首token延迟1秒以内，用几张H20？")
    assert a.status == "needs_clarification" and "concurrent_users" in a.clarification.missing
    # one 2,048-token prompt on one H20: 2 × 32.8e9 × 2,048 = 1.34e14 FLOPs at ~58% of 148 TFLOPS ≈ 1.6 s > 1 s
    assert a.figures["ttft_target_missed"] == 1 and "单个请求就达不到" in a.answer
    assert "可以，用" not in a.answer


def test_a_first_token_target_met_by_one_request_adds_no_warning():
    a = ask("Qwen2.5-7B on one H100, first token under 1 s, does it fit?")
    assert "ttft_target_missed" not in a.figures


# --- a format switch: own-data check, and the card's own 8-bit route ----------------------------------------------------
@pytest.mark.parametrize("text, fp8_cores", [
    ("推理要不要上FP8？我们是A100 80G集群跑Qwen3-32B，听说FP8能快一倍", False),
    ("FP8 or stay BF16 for Qwen3-32B on one H100?", True),
])
def test_a_format_comparison_says_to_check_on_own_data_and_names_int8_where_fp8_is_weight_only(text, fp8_cores):
    a = ask(text)
    assert "真实请求" in a.answer or "your own real prompts" in a.answer
    assert ("W8A8 INT8" in a.answer) is (not fp8_cores)


def test_several_sequences_share_the_kv_pool_so_each_gets_its_share():
    import re

    a = ask("Qwen2.5-72B-Instruct on 2x RTX 6000 Ada (48GB each) - what precision do I need, and what max context can I "
            "run with 8 concurrent users?")
    m = re.search(r"with 8 sequences at once, about \*\*([\d,]+) tokens each\*\* \(the pool holds ([\d,]+) tokens", a.answer)
    assert m
    each, pool = (int(x.replace(",", "")) for x in m.groups())
    assert each == pool // 8  # the pool over the eight users, not the pool as each one's context


def test_a_fine_tune_with_no_data_size_asks_for_examples_and_assumes_lora_where_full_does_not_fit():
    import re

    a = ask("We want to fine-tune Llama 3.1 70B on our support tickets. How long will that take on 8x H100?")
    assert a.status == "needs_clarification" and "examples × tokens each" in a.answer
    # full fine-tuning: 16 bytes per parameter × 70.6B = 1.13 TB of states (+ buffers) > 8 × 80 GB: LoRA is assumed
    need = float(re.search(r"full fine-tuning needs ~([\d,]+) GB", a.answer).group(1).replace(",", ""))
    assert 1100 <= need <= 1300 and a.request["method"] == "lora"


def test_a_fine_tune_that_fits_in_full_still_asks_the_method():
    a = ask("We want to fine-tune Llama 3.1 8B on our support tickets. How long will that take on 8x H100?")
    assert "which method" in a.answer


def test_concurrency_asked_where_one_box_cannot_hold_the_model_is_given_on_the_servers_that_can():
    a = ask("想租一台8卡H800跑DeepSeek-R1满血版（FP8），放得下吗？一台不够的话要几台？另外每人上下文按8k算，大概能扛多少并发？")
    serve = next(x for x in a.asks if x.intent == "serving")
    # 673 GB of FP8 weights do not fit 8 × 80 GB; 16 (two servers of 8) do, and their KV room holds the concurrency
    assert serve.figures["min_count_gpus"] == 16 and serve.figures["max_concurrent_sequences_at_min_count"] > 8
    assert "2 台 8 卡" in a.answer


def test_serving_options_without_a_price_each_are_still_ranked_by_each_users_speed():
    a = ask("部署Qwen2.5-72B，买4张L20还是2张H20？ 主要做内部知识库问答（RAG，prompt比较长，4-6k），同时在线大概30人。")
    head = a.answer.split("###")[0]
    assert "最好" in head and ": -;" not in head and "：-" not in head
    itl = [x.figures["serve_itl_ms"] for x in a.asks]
    best = a.asks[itl.index(min(itl))].ask
    assert f"**{best} 最好**" in head  # the lower milliseconds per token for each user wins


def test_speed_options_without_a_price_each_are_ranked_by_speed_not_left_blank():
    a = ask("vendor is offering a 4x H100 PCIe server way cheaper than an HGX H100 box. is PCIe ok for serving 70B or are "
            "we shooting ourselves in the foot vs SXM?")
    head = a.answer.split("###")[0]
    assert "**Best: H100 80GB SXM5**" in head and ": -;" not in head  # SXM: 3.35 TB/s HBM and NVLink against 2.0 TB/s, PCIe


# --- a card's two memory versions, each at its own count -----------------------------------------------------------------
def test_two_versions_of_a_card_by_memory_each_with_its_count():
    r = _req("A100 40G和80G差别大吗？要做Qwen2.5-14B全参微调，是买8张40G还是4张80G？预算差不多")
    assert r.gpu_counts == {"a100-40gb": 8, "a100-80gb": 4}


def test_training_setups_that_both_fit_are_set_against_their_compute_and_room():
    a = ask("A100 40G和80G差别大吗？要做Qwen2.5-14B全参微调，是买8张40G还是4张80G？预算差不多")
    head = a.answer.split("###")[0]
    # 8 × 312 = 2,496 against 4 × 312 = 1,248 dense BF16 TFLOPS: twice the compute, so about twice as fast
    assert "2,496 对 1,248" in head and "2.0 倍" in head


def test_pretraining_with_no_tokens_asks_for_them_with_the_time_per_100b():
    a = ask("how long would it take to pretrain a ~1B model from scratch on 8x 4090s?")
    assert a.status == "needs_clarification" and a.clarification.missing == ["tokens"]
    # the time is linear in the tokens: the default estimate's hours scaled to 100B tokens
    assert a.figures["hours_per_100b_tokens"] == pytest.approx(a.figures["wall_hours"] * 1e11 / a.request["tokens"], rel=0.01)


def test_an_moe_training_time_gives_the_lower_moe_mfu_beside_the_dense_default():
    a = ask("训一个MoE，总参数30B、激活3B（类似Qwen3-30B-A3B的结构），1T token，64张H100大概多久？")
    # at 0.6 × the dense MFU the same FLOPs take 1 / 0.6 of the time
    assert a.figures["hours_at_moe_mfu"] == pytest.approx(a.figures["wall_hours"] / 0.6, rel=0.02)
    dense = ask("Llama 3.1 8B pretraining, 1T tokens, 64 H100s, how long?")
    assert "hours_at_moe_mfu" not in dense.figures


def test_a_long_context_fit_says_how_long_a_full_prompt_takes_to_read_in():
    a = ask("vLLM跑Llama 3.1 8B，单张A100 80G，128k上下文能开吗？同时能跑几个128k的请求？")
    # 2 × 8e9 × 131,072 = 2.1e15 FLOPs of weights alone at ~58% of 312 TFLOPS ≈ 12 s, plus attention's O(n²): tens of s
    assert 10 <= a.figures["ttft_s_full_context"] <= 120 and "才能读完" in a.answer
    short = ask("vLLM跑Llama 3.1 8B，单张A100 80G，8k上下文能同时跑几个？")
    assert "ttft_s_full_context" not in short.figures


# --- a deployment cost with nothing known ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["老板让我评估一下部署大模型要花多少钱，先给个数", "how much would it cost to deploy our own LLM? boss wants a number"])
def test_a_deployment_cost_with_nothing_known_prices_the_usual_sizes_and_asks(text):
    a = ask(text)
    assert a.status == "needs_clarification" and set(a.clarification.missing) == {"model", "concurrent_users"}
    rows = [line for line in a.answer.splitlines() if line.startswith("| ") and ("7B" in line or "8B" in line or "R1" in line)]
    assert len(rows) >= 2  # the smallest and the largest tier, each with its hardware
    # a month of renting is the cards × the hourly rate × 730 h: the 8B/7B tier is one card
    assert "1× GeForce RTX 4090" in a.answer


@pytest.mark.parametrize("text, people", [("十个人左右用", 10), ("给二十个同事日常用", 20), ("三十个人的团队用", 30)])
def test_people_counted_in_chinese_numerals_are_a_team(text, people):
    r = _req(f"想做个本地知识库问答，模型14B，{text}，预算3万块以内，买什么显卡？")
    assert (r.team_size or r.daily_active_users or r.concurrent_users) == people


@pytest.mark.parametrize("said, budget", [("Budget's about $40k.", 40_000), ("budget is $25k", 25_000)])
def test_a_budget_written_with_an_apostrophe_is_read(said, budget):
    assert _req(f"{said} Need to serve Qwen3-32B for ~50 staff. What should we buy?").budget == budget


def test_a_purchase_for_stated_prompts_sizes_each_conversation_as_prompt_plus_answer():
    a = ask("Budget's about $40k. Need to serve Qwen3-32B internally for ~50 staff, mostly chat + RAG with ~6k-token "
            "prompts. What should we buy?")
    # 6k = 6,144-token prompts + 512 output = 6,656 tokens each, not the 4,096 default
    assert "context 6,656" in a.answer and "prompt length" not in a.answer.split("Not used")[-1]


def test_a_bottleneck_asked_is_answered_from_the_plans_split_of_gpu_time():
    a = ask("Our RAG bot: 40 QPS at peak, prompts ~8k tokens (retrieved chunks), answers ~300 tokens. Model is "
            "Qwen2.5-32B-Instruct. How many H100s do we need, and is prefill or decode the bottleneck?")
    share = a.figures["serve_prefill_share"]
    # 8,192 prompt tokens per 300 output: prefill is 2·N·8,192 FLOPs a request at compute speed against 300 decode
    # steps shared by the batch; the plan's own share of GPU time decides the word
    assert a.figures["bottleneck"] == ("prefill" if share >= 0.5 else "decode")
    assert f"The bottleneck: {a.figures['bottleneck']}" in a.answer


def test_one_api_price_with_a_volume_prices_every_token_in_and_out():
    a = ask("API vs self-host for ~2B tokens/month (80% input / 20% output), Llama 3.3 70B. Together charges ~$0.88/M for "
            "it. Is renting 2x H100 24/7 cheaper?")
    # 2B tokens a month × $0.88 per million, input and output alike = $1,760 a month
    assert a.figures["api_per_month"] == pytest.approx(1760, abs=2)
    assert any("input and output alike" in w for w in a.warnings)


def test_an_output_price_stays_the_output_price():
    r = _req("API charges $0.60 per 1M output tokens; we do 50M tokens a day on qwen2.5-7b. self-host on one L4 cheaper?")
    assert r.reference_per_million == 0.6 and r.reference_input_per_million is None


def test_offload_or_a_second_card_compares_the_two_set_ups_for_serving():
    a = ask("do we need CPU offload to run gpt-oss-120b on one RTX 5090, or should we just buy a second 5090? box has "
            "128GB DDR5")
    one, two = (x.figures for x in a.asks)
    # gpt-oss-120b in MXFP4 is ~65 GB: one 32 GB card keeps most layers' experts in RAM; two cards keep nearly all on GPU
    assert one["cpu_moe_layers"] > two["cpu_moe_layers"]
    assert "offload is needed" in a.answer and "second card makes it" in a.answer
    assert "optimizer" not in a.answer.split("###")[1].split("\n")[2]  # (the restatement: serving has no optimizer)


def test_a_full_fine_tune_no_change_saves_names_lora_on_the_same_gpus():
    a = ask("we got access to 'a DGX' from the uni. can we full-fine-tune Llama 3.1 70B on it?")
    # full: 16 B × 70.6B = 1.13 TB of states over 8 × 80 GB: no; LoRA: 141 GB of frozen bf16 weights / 8 + adapters
    # and activations ≈ 20-30 GB per GPU: yes
    assert 15 <= a.figures["lora_per_gpu_gb"] <= 40 and "LoRA instead, on the same 8 GPUs" in a.answer


def test_a_quoted_runs_hours_are_set_against_the_mfu_they_imply():
    a = ask("Meta's model card says Llama 3.1 8B took 1.46M H100 GPU-hours for ~15T tokens. We want to continue-pretrain "
            "our own 8B on 100B tokens of code, so that's 1.46M x 100/15000 = ~10k GPU-hours, right? How many days on 32 H100s?")
    # 6 × 8.03e9 × 15e12 = 7.2e23 FLOPs / (1.46e6 h × 3,600 × 989.4e12) = 13.9% MFU
    assert a.figures["published_implied_mfu"] == pytest.approx(6 * 8.03e9 * 15e12 / (1.46e6 * 3600 * 989.4e12), rel=0.03)
    assert a.request.get("seq_len") is None  # ('~10k GPU-hours' is no sequence length)
    assert "Budget on the published same-size figure" not in a.answer


def test_a_yuan_purchase_ranks_cards_barred_from_china_after_every_card_sold_there():
    a = ask("预算100万人民币，想搭一套能跑DeepSeek-R1满血版的推理服务，给公司内部大概500人用。数据不能出公司。买什么？")
    call = next(c for c in a.tool_calls if c.name == "plan_purchase")
    opts = call.result["options"]
    grey = [i for i, o in enumerate(opts) if o["grey_market"]]
    legal = [i for i, o in enumerate(opts) if not o["grey_market"]]
    assert grey and legal and max(legal) < min(grey)  # (the MI300X's yuan quote in budget does not put it first)
    assert not opts[0]["grey_market"]


def test_a_model_split_over_consumer_cards_says_they_talk_over_pcie():
    a = ask("Qwen3-30B-A3B 用两张4090部署，能跑吗？单用户大概多少tok/s？能撑多少并发？")
    assert "没有 NVLink" in a.answer
    one = ask("Qwen3-30B-A3B on two H100s, how fast for one user?")
    assert "no NVLink" not in one.answer


def test_a_fine_tune_with_no_epochs_says_one_epoch_is_assumed():
    a = ask("Qwen3-8B全参微调，数据大概5亿token，8卡A800要跑多久？")
    assert "1 个 epoch" in a.answer
    b = ask("Qwen3-8B全参微调，数据大概5亿token，3个epoch，8卡A800要跑多久？")
    assert "1 个 epoch（" not in b.answer


def test_our_own_model_with_a_budget_prices_what_it_usually_means_and_asks():
    a = ask("训练一个我们自己的大模型需要多少张卡、多长时间？预算500万左右")
    assert a.status == "needs_clarification" and "method" in a.clarification.missing
    # ¥5,000,000 / the H800's rate = GPU-hours; C = hours × 3,600 × 989.4e12 × 0.40; N = sqrt(C / 120)
    rate = 5_000_000 / a.figures["budget_gpu_hours"]
    c = 5_000_000 / rate * 3600 * 989.4e12 * 0.40
    assert a.figures["budget_optimal_params"] == pytest.approx((c / 120) ** 0.5, rel=0.02)
    assert "从零预训练 7B" in a.answer and "微调开源 7B" in a.answer


def test_a_card_pick_for_two_workloads_picks_for_each_and_flags_rocm():
    a = ask("for a small inference cluster, MI300X or H200 - which is better value? workloads are mostly Llama 3.1 405B "
            "FP8 and DeepSeek-V3.")
    picks = [c for c in a.tool_calls if c.name == "recommend"]
    assert len(picks) == 2 and {c.args["model"] for c in picks} >= {"deepseek-v3"}
    assert "**DeepSeek-V3" in a.answer and "ROCm" in a.answer


def test_a_rate_asked_beside_a_cost_per_token_is_given_with_its_range_and_date():
    a = ask("two quick ones: what's an H200 going for per hour on the clouds right now, and at that rate what's our cost "
            "per 1M output tokens if we serve llama 3.3 70B fp8 on one card and get ~2,500 tok/s aggregate?")
    assert "on demand: $" in a.answer and "as of" in a.answer
    # the cost per million at the typical rate: rate / (2,500 × 3,600 / 1e6)
    rate = float(a.answer.split("typical $")[1].split(";")[0])
    assert f"${rate / 9.0:,.3f} per million tokens" in a.answer


def test_full_or_lora_is_not_decided_on_speed_alone():
    a = ask("LoRA or full fine-tune for Qwen2.5-14B on 4x A100 80GB? we have 200M tokens of domain data")
    head = a.answer.split("###")[0]
    assert "Beyond speed" in head or "pick LoRA" in head
