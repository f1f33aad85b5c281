"""Issue 24, twelfth round: a stated volume is priced at that volume. An API's prompt cache (hit rate and cached input
price) bills the input; a volume written as its input and output parts survives a note in brackets between them; people
× requests each a day × tokens per request is the volume, and a share of the traffic in a few busy hours is its peak.
Generated over phrasings, currencies and figures; every expected figure is worked by hand below."""
from __future__ import annotations

import re

import pytest

from assistant.readers import money, slots
from assistant.readers.rules import read
from assistant.service import ask
from knowledge.catalog import default_catalog

CAT = default_catalog()


def _req(text: str):
    return read(text, CAT).request


def _num(s: str) -> float:
    return float(s.replace(",", ""))


# --- the prompt cache's share and price ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text,hit,cached", [
    ("输入 2 元/百万（未命中）、0.5 元/百万（命中），缓存命中率 30%", 0.30, 0.5),
    ("输入 2 元/百万，命中缓存 0.2 元/百万，命中率约 60%", 0.60, 0.2),
    ("input $1.25/M, cached input $0.125/M, output $10/M; cache hit rate ~40%", 0.40, 0.125),
    ("input $3/M (cache reads $0.30/M), output $15/M, 25% of input tokens are cache hits", 0.25, 0.30),
])
def test_cache_hit_rate_and_cached_price_are_read(text, hit, cached):
    got_hit, got_price = money.api_cache(text.lower())
    assert got_hit == pytest.approx(hit)
    assert got_price == pytest.approx(cached)


def test_a_miss_price_is_not_read_as_the_cached_one():
    # '2 元/百万（未命中）' is the full price: the word before the bracket is 未命中, not 命中
    assert money.api_cache("输入 2 元/百万（未命中）") == (None, None)


@pytest.mark.parametrize("text,inp,out", [
    ("每月 50 亿输入 token（缓存命中率 30%）、10 亿输出 token", 5e9, 1e9),
    ("30m input tokens (mostly rag context) + 10m output tokens a day", 30e6, 10e6),
])
def test_a_bracketed_note_between_the_volume_parts_is_skipped(text, inp, out):
    assert money.split_volumes(text) == (pytest.approx(inp), pytest.approx(out))


# --- the API's bill at the stated volume, cache included ----------------------------------------------------------------
ZH_BILL = ("我们每月大概 {i} 亿输入 token（缓存命中率 {h}%）、{o} 亿输出 token。按 DeepSeek API：输入 2 元/百万（未命中）、"
           "0.5 元/百万（命中），输出 8 元/百万，每月多少钱？如果自建满血 R1，2 台 8 卡 H20，整机 120 万一台，按 3 年折旧，划算吗？")


@pytest.mark.parametrize("i,h,o", [(50, 30, 10), (20, 50, 5), (80, 0, 20)])
def test_api_bill_a_month_counts_cache_hits(i, h, o):
    # input billed per million at (1 - h) × ¥2 + h × ¥0.5; output at ¥8. For 50 亿 / 30% / 10 亿:
    # 5,000M × (0.7 × 2 + 0.3 × 0.5 = 1.55) + 1,000M × 8 = 7,750 + 8,000 = ¥15,750 a month
    a = ask(ZH_BILL.format(i=i, h=h, o=o))
    in_price = (1 - h / 100) * 2 + h / 100 * 0.5
    bill = i * 100 * in_price + o * 100 * 8
    # the day's figures (a month is 730 / 24 = 30.42 days), the month's beside them as asked
    m = re.search(r"API 输入 ([\d,]+)M × ¥([\d.]+).*?输出 ([\d,]+)M × ¥8 = \*\*每天 ¥[\d,]+\*\*（\*\*每月 ¥([\d,]+)\*\*）",
                  a.answer)
    assert m, a.answer[:800]
    days = 730 / 24
    assert _num(m.group(1)) == pytest.approx(i * 100 / days, abs=0.5)  # (shown to the nearest million)
    assert _num(m.group(2)) == pytest.approx(in_price, rel=0.01)
    assert _num(m.group(3)) == pytest.approx(o * 100 / days, abs=0.5)
    assert _num(m.group(4)) == pytest.approx(bill, rel=0.01)
    assert a.figures["api_per_month"] == pytest.approx(bill, rel=0.01)
    assert not any(x.startswith(("cache", "reference_cached")) for x in a.ignored), a.ignored


def test_api_bill_in_english_with_cached_input():
    # input $1.25/M, cached $0.125/M, 40% hits: 0.6 × 1.25 + 0.4 × 0.125 = 0.75 + 0.05 = $0.80 per M input;
    # 900M × 0.80 + 300M × 10 = 720 + 3,000 = $3,720 a month
    a = ask("we push ~900M input tokens (40% cache hits) and 300M output tokens a month through an API at input $1.25/M, "
            "cached input $0.125/M, output $10/M. would renting 2x H100 at $2.50/GPU-hr to self-host llama 3.3 70b fp8 "
            "be cheaper per month?")
    assert a.figures["api_per_month"] == pytest.approx(3720, rel=0.01), a.answer[:900]
    # self-hosting: 2 × $2.50 × 730 h = $3,650 a month; the verdict follows the two bills
    assert a.figures["self_hosted_per_month"] == pytest.approx(3650, rel=0.01)
    assert "self-hosting is cheaper" in a.answer.split("**At your volume")[1][:40]


def test_a_hit_rate_without_a_cached_price_is_named_unused():
    a = ask("we push ~900M input tokens (40% cache hits) and 300M output tokens a month through an API at input $1.25/M, "
            "output $10/M. would renting 2x H100 at $2.50/GPU-hr to self-host llama 3.3 70b fp8 be cheaper per month?")
    # no cached price: every input token at $1.25: 900 × 1.25 + 300 × 10 = 1,125 + 3,000 = $4,125
    assert a.figures["api_per_month"] == pytest.approx(4125, rel=0.01)
    assert "cache hit rate is not used" in a.answer


# --- people × requests each a day × tokens: the volume, and its busy hours ---------------------------------------------
@pytest.mark.parametrize("text,each", [
    ("200 daily active users, ~30 requests each per day", 30),
    ("200 daily active users, 12 requests per user per day", 12),
    ("日活 200 人，人均每天 25 次", 25),
    ("日活 200，每人每天约 8 次请求", 8),
])
def test_requests_a_day_each(text, each):
    assert slots.requests_a_day_each(text.lower()) == each


@pytest.mark.parametrize("text,factor", [
    ("~80% of traffic within 10 working hours", 0.8 * 24 / 10),   # 1.92
    ("90% of requests in 8 hours", 0.9 * 24 / 8),                 # 2.7
    ("80% 的请求集中在白天 10 个小时", 0.8 * 24 / 10),
    ("60% 的流量集中在 12 小时", 1.2),                             # 0.6 × 24 / 12
])
def test_busy_hours_share_is_a_peak_factor(text, factor):
    got = slots.busy_hours_peak(text.lower())
    assert got and got[0] == pytest.approx(factor)


EN_PLAN = ("plan: Qwen3-30B-A3B BF16 on 2x L40S (TP2), rented at ${p}/GPU-hr 24/7. {u} daily active users, ~{e} requests "
           "each per day, avg {i} input / {o} output tokens, ~80% of traffic within 10 working hours. is 2 cards enough? "
           "monthly cost and cost per million tokens?")


@pytest.mark.parametrize("p,u,e,i,o", [(0.85, 200, 30, 1500, 300), (1.0, 500, 10, 800, 400)])
def test_cost_per_million_at_the_users_volume(p, u, e, i, o):
    a = ask(EN_PLAN.format(p=p, u=u, e=e, i=i, o=o))
    month = 2 * p * 730                            # e.g. 2 × $0.85 × 730 h = $1,241
    out_m = u * e * o * 730 / 24 / 1e6             # output tokens a month, millions (730 h = 30.4 days)
    all_m = u * e * (i + o) * 730 / 24 / 1e6       # input and output
    m = re.search(r"\*\*\$([\d,]+) a month\*\*; \$([\d.]+) per million output tokens at your volume, \*\*\$([\d.]+) per "
                  r"million tokens\*\* counting the input too", a.answer)
    assert m, a.answer[:1500]
    assert _num(m.group(1)) == pytest.approx(month, rel=0.01)
    assert _num(m.group(2)) == pytest.approx(month / out_m, rel=0.01)
    assert _num(m.group(3)) == pytest.approx(month / all_m, rel=0.01)
    # the busy hours: 80% in 10 h is 1.92× the day's average
    assert "1.92× peak" in a.answer
    for name in ("daily_active_users", "requests_per_s", "input_output_ratio"):
        assert not any(x.startswith(name) for x in a.ignored), a.ignored


# --- a job's hours stated on one card: the other cards run it by the speed ratio, never in the same hours --------------
JOB_FORMS = [
    "{m} job on Qwen2.5-32B, our estimate is {h} hours on an 8x {a} node. rent that at ${pa}/gpu-hr, or 8x {b} at "
    "${pb}/GPU-hr? which is cheaper and by how much?",
    "Qwen2.5-32B {m} 我们估计 8 卡 {a} 要跑 {h} 小时，{a} 租 {pa} 美元/卡时，{b} {pb} 美元/卡时，租哪个更省钱？",
]
PAIRS = [("A100 80GB", "H100 SXM", "a100-80gb", "h100"), ("A100 80GB", "H200", "a100-80gb", "h200"),
         ("L40S", "H100 SXM", "l40s", "h100")]


@pytest.mark.parametrize("form", JOB_FORMS)
@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("h,pa,pb,m", [(200, 1.3, 2.4, "LoRA"), (120, 1.0, 3.5, "full fine-tune")])
def test_job_hours_on_one_card_scale_by_the_speed_ratio(form, pair, h, pa, pb, m):
    a_name, b_name, a_id, b_id = pair
    ans = ask(form.format(m=m, h=h, a=a_name, b=b_name, pa=pa, pb=pb))
    f = ans.figures
    # the table in the answer: each card's dense peak, MFU and speed relative to the card the hours were given on
    rows = {r[0]: r for r in re.findall(r"\| ([a-z0-9-]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+)× \|", ans.answer)}
    assert set(rows) == {a_id, b_id}, ans.answer[:1500]
    ratio = float(rows[b_id][3])
    compute = lambda g: float(rows[g][1]) * float(rows[g][2])
    # (round 14: LoRA recomputes only where one sequence's activations do not fit beside the frozen weights: the forward
    # then runs twice, 6·N·D of hardware FLOPs against 4·N·D; full fine-tuning recomputes selectively on every card)
    from knowledge.catalog import default_catalog
    from tools.train_time import TrainingTimeRequest, _least_recompute

    cat = default_catalog()
    # (round 15: where the lowest ZeRO stage leaves no room for the activations, sharding the frozen weights (ZeRO-3)
    # frees it and is timed too; on NVLink the faster is ZeRO-3 without recomputation, so LoRA recomputes only where
    # even fully sharded one sequence's activations do not fit)
    work = lambda g: 1.0 if m != "LoRA" else (6.0 if _least_recompute(TrainingTimeRequest(  # noqa: E731
        model=cat.model("qwen2.5-32b")[0], gpu=cat.gpu(g)[0], num_gpus=8, tokens=1e9, method="lora", zero=3),
        2048) == "full" else 4.0)
    if a_id.startswith("a100"):  # NVLink on both: the ratio is the compute ratio (peak × MFU), e.g. 989.4 × 0.40 /
        # (312 × 0.45) = 2.82, times the hardware FLOPs each does for the same tokens
        assert ratio == pytest.approx(compute(b_id) / compute(a_id) * work(a_id) / work(b_id), rel=0.03)
    else:  # a PCIe card against an NVLink one: at least the compute ratio, its gradient traffic slower
        assert ratio >= compute(b_id) / compute(a_id) * 0.99
    hours_b = h / ratio                                  # the same work at the other card's speed
    assert f["measured_hours_" + a_id] == pytest.approx(h)
    assert f["measured_hours_" + b_id] == pytest.approx(hours_b, rel=0.01)
    assert f["measured_cost_" + a_id] == pytest.approx(h * 8 * pa, rel=0.01)
    assert f["measured_cost_" + b_id] == pytest.approx(hours_b * 8 * pb, rel=0.01)
    a_cheaper = h * pa < hours_b * pb
    label = re.search(r"\*\*(8× [^*]+?) (?:is cheaper|更便宜)\*\*", ans.answer)
    assert label, ans.answer[:1200]
    first_row = re.search(r"(8× [^:：*]+?)[:：]\s*\*\*", ans.answer).group(1)  # the card the hours were given on
    assert (label.group(1) == first_row) == a_cheaper, ans.answer[:1200]
    # the break-even speed ratio is the price ratio: the dearer card must be this much faster to cost less
    assert f"{max(pa, pb) / min(pa, pb):.2f}" in ans.answer
    assert not any(x.startswith(("period_hours", "gpu_rental_prices")) for x in ans.ignored), ans.ignored


# --- several formats, the weights alone asked: every format named is a row, none dropped -------------------------------
from tools.params import count_parameters  # noqa: E402

FORMAT_FORMS = [
    ("{fs} 这几种格式，以 {m} 为例，光权重各占多少显存？哪些能用 vLLM 正常跑？", "、", True),
    ("for {m}, how big are the weights in {fs}? and which of those can vllm serve?", ", ", True),
    ("{m}: weights alone in {fs}, GB each?", " / ", False),
]
FORMAT_SETS = [["Q4_K_M", "AWQ", "GPTQ", "FP8", "NF4"], ["BF16", "FP8", "AWQ", "Q4_K_M"], ["Q8_0", "Q5_K_M", "Q4_K_M",
                                                                                       "IQ3_XXS"]]
MODELS = [("Qwen2.5-72B-Instruct", "qwen2.5-72b"), ("Llama 3.1 70B", "llama-3.1-70b"), ("Qwen3-32B", "qwen3-32b")]
# bits per weight stored, scales included (tools/formats.py's sources): AWQ/GPTQ 4 + (16 + 4)/128; NF4 4 + 32/64;
# FP8 8 + 32/128²; the GGUF figures are llama.cpp's published whole-file averages
BITS = {"BF16": 16, "FP8": 8 + 32 / 128 ** 2, "AWQ": 4 + 20 / 128, "GPTQ": 4 + 20 / 128, "NF4": 4.5, "Q8_0": 8.5,
        "Q5_K_M": 5.68, "Q4_K_M": 4.84, "IQ3_XXS": 3.06}


@pytest.mark.parametrize("form", FORMAT_FORMS)
@pytest.mark.parametrize("fmts", FORMAT_SETS)
@pytest.mark.parametrize("model", MODELS)
def test_weights_alone_for_every_format_named(form, fmts, model):
    text, sep, vllm = form
    name, mid = model
    a = ask(text.format(fs=sep.join(fmts), m=name))
    c = count_parameters(CAT.model(mid)[0])
    for f in fmts:
        # 16-bit and GGUF files hold every tensor at their bits; the others keep embeddings, head and norms in 16-bit
        if f == "BF16" or f.startswith(("Q", "IQ")):
            gb = c.total * BITS[f] / 8 / 1e9
        else:
            gb = (c.linear * BITS[f] / 8 + (c.total - c.linear) * 2) / 1e9
        key = "weights_gb_" + f.lower()
        assert a.figures.get(key) == pytest.approx(gb, rel=0.01), (key, a.answer[:1200])
    assert sum(k.startswith("weights_gb_") for k in a.figures) == len(fmts)  # none dropped, none added
    if vllm:  # each format placed: served, slow, or experimental (GGUF)
        line = re.search(r"\*\*(?:In vLLM|vLLM 能否正常跑)\*\*[:：](.*)", a.answer).group(1)
        assert all(re.search(re.escape(f.replace("_", "_")), line, re.I) for f in fmts if f != "BF16"), line
        if any(f.startswith(("Q", "IQ")) for f in fmts):
            assert re.search(r"experimental|实验性", line)


# --- one stream's speed multiplied by the users: judged at that many streams --------------------------------------------
from assistant.claims import per_stream_times_users  # noqa: E402


@pytest.mark.parametrize("text,want", [
    ("so one 4090 = 120 tok/s x 50 users = 6000 tok/s right?", (120, 50, 6000)),
    ("we get 35 t/s, times 20 users that's 700", None),                         # no product sign: not this claim form
    ("单卡 80 token/s × 30 个并发 = 2400 token/s 吧？", (80, 30, 2400)),
    ("单路 60 tokens/s，40 个并发就是 2400 tokens/s？", (60, 40, 2400)),
    ("so 100 tok/s x 10 users = 5000?", None),                                   # not the product: some other sum
    ("120 tok/s x 50 users = 6k tok/s", (120, 50, 6000)),
])
def test_per_stream_times_users_is_read(text, want):
    got = per_stream_times_users(text)
    assert (got is None) == (want is None)
    if want:
        assert got == (pytest.approx(want[0]), want[1], pytest.approx(want[2]))


CLAIMS = [
    ("a blog shows ~{t} tok/s on an {card} with {m}. so one card = {t} tok/s x {u} users = {p} tok/s right?", False),
    ("{m} 在 {card} 上单路 {t} token/s，那 {u} 个并发就是 {p} token/s 吧？", True),
]


@pytest.mark.parametrize("form,zh", CLAIMS)
@pytest.mark.parametrize("card,m,t,u", [("RTX 4090", "Llama 3.1 8B Q4_K_M", 120, 50), ("L40S", "Qwen2.5-7B", 90, 64),
                                         ("H100", "Llama 3.1 70B FP8", 40, 32)])
def test_per_stream_times_users_judged_at_that_load(form, zh, card, m, t, u):
    a = ask(form.format(card=card, m=m, t=t, u=u, p=t * u))
    f = a.figures
    # the same card and model asked plainly at that many users gives the same totals (one tool, one figure)
    n = a.verdict.num_gpus or 1  # (the cards that hold the model with these streams' KV cache)
    direct = ask(f"{m} on {n}x {card}, {u} concurrent users: tokens/s per user and in total?").figures
    assert f["decode_tokens_per_s_total"] == pytest.approx(direct["decode_tokens_per_s_total"], rel=0.02)
    assert f["claimed_total_tokens_per_s"] == pytest.approx(t * u)
    # a batch of streams shares each step: the total is the streams run × each one's speed
    assert f["decode_tokens_per_s_total"] == pytest.approx(f["batch"] * f["decode_tokens_per_s_per_seq"], rel=0.02)
    wrong = f["decode_tokens_per_s_total"] < 0.8 * t * u
    assert f["claim_correct"] == int(not wrong)
    head = a.answer.split("\n")[2] if a.answer.startswith(("Understood", "理解为")) else a.answer
    assert head.startswith("**不对**" if zh and wrong else "**No**" if wrong else "**"), head[:200]


# --- API-only models; a card the table lacks written with its memory; FP8 beside a 16-bit count; a quoted count -------
@pytest.mark.parametrize("text", ["想本地部署 Qwen2.5-Max，用 H20 96G 要几张卡？", "can we self-host qwen3-max on 8x H100?",
                                  "we want to run Grok 4 locally on our own A100s, how many do we need?"])
def test_api_only_models_are_said_closed(text):
    a = ask(text)
    assert re.search(r"weights (?:are|were) not (?:released|published)|not released|权重没有公开|无法私有化", a.answer), a.answer[:600]


@pytest.mark.parametrize("card,mem,model,fmt,n", [("H300", 288, "Llama 3.1 405B", "FP16", 2),
                                                 ("V200", 64, "Llama 3.1 70B", "BF16", 2)])
def test_unknown_card_with_its_memory_is_checked_against_that_memory(card, mem, model, fmt, n):
    a = ask(f"is the NVIDIA {card} ({mem}GB) good for serving {model}? vendor says {n} of them run it in {fmt}")
    params = CAT.model(model.lower().replace(" ", "-").replace("llama-3.1", "llama-3.1"))[0].params_total
    need = params * 2 / 1e9                      # 16-bit weights alone: parameters × 2 bytes
    if need > n * mem:  # the claim fails on its own numbers: n × memory against the weights
        assert f"{n} × {mem} GB = {n * mem:,.0f} GB is less than the {need:,.0f} GB" in a.answer, a.answer[:800]
    same = [g.id for g in CAT.gpus if g.memory_gb and abs(g.memory_gb - mem) <= 0.02 * mem and g.vendor != "Apple"]
    if same:  # the real cards of that memory are offered first
        offered = a.answer.split("Did you mean: ")[1].split("\n")[0].split(" / ")
        assert set(offered[:len(same[:3])]) == set(same[:3]), offered


@pytest.mark.parametrize("model,card,users", [("Llama 3.1 70B", "H100", 20), ("Qwen2.5-72B", "H200", 40),
                                               ("Llama 3.1 70B", "L40S", 8)])
def test_fp8_beside_a_16bit_count_when_it_takes_fewer(model, card, users):
    a = ask(f"how many {card}s do we need to serve {model} to {users} users, ~2k token chats?")
    n16 = a.figures["serve_total_gpus"]
    m = re.search(r"\*\*In FP8: (\d+)× ", a.answer)
    # FP8 weights are half the bytes: when the 16-bit plan needs more than one GPU on a card with FP8 math, fewer do
    if m:
        assert int(m.group(1)) < n16
    else:
        assert n16 == 1 or card == "A100", a.answer[:900]


@pytest.mark.parametrize("text", [
    "vendor's doc: 'Llama 3.1 70B requires 8x H100 for inference.' we have ~20 users, 2k chats. how many H100s do we need?",
    "销售说 Qwen2.5-72B 推理要 16 张 H100，我们就 30 个人用，对话 4k 以内，到底要几张？",
])
def test_a_quoted_count_is_a_claim_when_the_count_is_asked(text):
    a = ask(text)
    assert re.search(r"someone else's claim|别人的说法", a.answer)
    claimed = 8 if "8x" in text else 16
    assert a.figures["serve_total_gpus"] < claimed


def test_the_users_own_count_stays_theirs():
    a = ask("we have 8 H100s. how many H100s do we need for Llama 3.1 70B with 20 users?")
    assert not re.search(r"someone else's claim", a.answer)


# --- a bug never reaches the user as a traceback -----------------------------------------------------------------------
def test_an_internal_error_is_an_answer_not_a_traceback(monkeypatch):
    import assistant.service as service

    def broken(*a, **k):
        raise AttributeError("'NoneType' object has no attribute 'strip'")

    monkeypatch.setattr(service, "read", broken)
    for text, lang in (("how many H100s for llama 70b?", "en"), ("70B 要几张 H100？", "zh")):
        a = service.ask(text)
        assert a.status == "error" and a.lang == lang
        assert "Traceback" not in a.answer and "NoneType" not in a.answer
        assert re.search(r"went wrong|出错", a.answer)


@pytest.mark.parametrize("text", ["每千次请求成本多少？", "每百次调用的费用"])
def test_a_price_per_thousand_requests_is_no_load(text):
    assert "requests_per_s" not in _req("Llama 3.1 8B 在 L20 上，" + text).stated


# --- one model, a training job and a serving job in one message: each sized on its own terms ---------------------------
TASK_FORMS = [
    ("For {m}: how much memory to serve it in {f} vs to do a {t}, and how many {g}s for each?", False),
    ("{m} 要做两件事：{t} 微调 和 {f} 推理上线，分别要多少显存？用 {g} 的话各要几张", True),
]


@pytest.mark.parametrize("form,zh", TASK_FORMS)
@pytest.mark.parametrize("m,f,t,g", [("Qwen3-32B", "BF16", "full fine-tune", "H100"),
                                     ("Llama-3.3-70B", "FP8", "QLoRA", "H20"),
                                     ("Qwen2.5-14B", "BF16", "LoRA", "A100")])
def test_train_and_serve_each_sized(form, zh, m, f, t, g):
    text = form.format(m=m, f=f, t=t.replace(" fine-tune", "") if zh else t, g=g)
    a = ask(text)
    assert len(a.asks) == 2, a.answer[:600]
    train, serve = a.asks
    assert train.intent == "training_memory" and serve.intent in ("inference_memory", "serving")
    # the serving format is the one written beside the serving words; training keeps its own (QLoRA: NF4 base)
    assert (serve.request.get("precision") or "").lower() == f.lower()
    want_t = "nf4" if t == "QLoRA" else None
    assert train.request.get("precision") == want_t
    # two jobs, listed side by side, never one 'picked' over the other
    assert not re.search(r"\bpick\b|选 ", a.answer.split("\n\n###")[0])
    assert re.search(r"Each job on its own|两件事各自要", a.answer)


# --- a load that grows by a factor: planned at the grown load, or today's load asked ------------------------------------
@pytest.mark.parametrize("text,k", [("boss wants to double the number of users next month", 2),
                                    ("traffic will triple by Q3", 3), ("下个月用户要翻倍", 2), ("并发增加到现在的 3 倍", 3),
                                    ("expect 4x the users after launch", 4), ("we serve 40 users today", None)])
def test_load_growth_is_read(text, k):
    got = slots.load_growth(text.lower()).get("load_multiplier")
    assert got == (pytest.approx(k) if k else None)


def test_grown_load_with_todays_users_is_planned_at_the_grown_load():
    a = ask("we serve Llama 3.1 8B on 1x L40S to 30 concurrent users; users will double next month. enough?")
    # 30 users × 2 = 60 concurrent: the plan is for 60, on the card named
    assert a.figures["concurrent_users"] == 60, a.answer[:600]


@pytest.mark.parametrize("turns", [
    ["We serve Mixtral 8x7B Instruct (fp16) on 2x A100 80GB with vLLM TP=2. latency is fine today.",
     "boss wants to double the number of users next month. do we need to buy 2 more A100s?"],
    ["我们用 2 张 A100 80G 跑 Qwen2.5-32B BF16，vLLM。", "下个月用户要翻倍，要不要再买 2 张？"],
])
def test_grown_load_without_todays_users_asks_for_it(turns):
    history = []
    for t in turns:
        a = ask(t, history=list(history))
        history.append(a.slots)
    assert a.clarification is not None and "concurrent_users" in a.clarification.missing
    held = a.figures["max_concurrent_sequences"]
    assert held > 0 and f"{held}" in a.answer  # what the cards hold now: the rule's threshold, said
    assert a.figures["load_multiplier"] == 2


# --- owning costs as written: 'used' as in pay-per-use, 'power incl', a rig's own GPU count, yuan written as 块, a year's
# hours --------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,used", [("8x H100 node. Rent: $2.20 per GPU-hour, pay only when used.", False),
                                       ("hours used per month ~300, buy 8x H100 at $250k?", False),
                                       ("buy 8 used A100s at $9k each?", True), ("二手 3090 每张 ¥5000 划算吗", True)])
def test_used_means_second_hand_only(text, used):
    assert bool(_req(text).used) == used


@pytest.mark.parametrize("fee", ["$3k/month colo (power incl)", "$3k/month colo incl. power", "$3k a month hosting, power inc."])
def test_a_hosting_fee_that_includes_power_adds_no_electricity(fee):
    a = ask(f"Rent vs buy for one 8x H100 node. Buy: $280k upfront + {fee}. Rent: $2.20 per GPU-hour. We'd use it "
            "~60% of the time over 3 years. Which is cheaper?")
    # owning over 36 months: $280,000 + 36 × $3,000 = $388,000 (power inside the fee)
    assert a.request.get("hosting_includes_power") is True
    assert "**Own: $388,000**" in a.answer, a.answer[:600]


@pytest.mark.parametrize("n,price", [(4, 12000), (2, 5000), (6, 30000)])
def test_a_rig_price_is_spread_over_its_own_gpus(n, price):
    a = ask(f"{n}x RTX 4090 rig we'd build for ${price:,}, electricity $0.15/kWh, vs renting 4090s at $0.35/hr each. "
            "Over 2 years which is cheaper?")
    assert a.request.get("purchase_price_per_server") == price
    assert f"your server price / {n} GPUs = {price / n:,.0f} USD per GPU" in a.answer


def test_yuan_written_as_kuai_is_a_price_not_a_card_count():
    a = ask("租 H100 每卡每小时 15 块 vs 买 8 卡 H100 服务器 220 万，怎么选？")
    assert not a.asks and a.request["price_per_gpu_hour"] == 15 and a.request["num_gpus"] == 8


@pytest.mark.parametrize("text,hours", [("我们训练一年大概用 4000 小时（整机）", 4000), ("we'd use it ~3,000 hours a year", 3000)])
def test_hours_a_year_are_the_owned_gpus_use(text, hours):
    r = _req("租 H100 每卡每小时 15 块 vs 买 8 卡 H100 服务器 220 万，" + text + "，怎么选？")
    assert r.utilization == pytest.approx(hours / 8760, abs=1e-4) and r.period_hours is None


@pytest.mark.parametrize("card,mem", [("4060Ti 16G", 16), ("RTX 4090", 24)])
@pytest.mark.parametrize("zh", [True, False])
def test_each_format_on_the_card_named(card, mem, zh):
    fmts = ["Q4_K_M", "Q8_0", "AWQ", "GPTQ-Int4", "NF4"]
    text = (f"Qwen2.5-14B 的 {'、'.join(fmts)} 分别多大？哪个能放进 {card} 并跑 8k 上下文？" if zh else
            f"Qwen2.5-14B in {', '.join(fmts)}: how big is each, and which fits a {card} at 8k context?")
    a = ask(text)
    assert sum(k.startswith("weights_gb_") for k in a.figures) == 5, a.answer[:900]
    table = a.answer.split("8,192 token")[1]
    rows = re.findall(r"\| ((?:GGUF |AWQ|GPTQ|NF4)[^|]*?) \| ([\d.]+) \| (✅|❌)", table)
    assert len(rows) == 5, table[:900]
    for name, need, mark in rows:
        fmt = {"GGUF Q4_K_M": "q4_k_m", "GGUF Q8_0": "q8_0"}.get(name.strip(), name.split()[0].lower())
        if a.figures["weights_gb_" + fmt] > mem * 1.074:  # weights alone beyond the card's GiB can never fit
            assert mark == "❌", (name, a.answer[:900])


@pytest.mark.parametrize("text", ["can I run gpt-oss on a MacBook Pro M4 Max with 64GB?", "can i fine tune llama on a 4090?",
                                  "qwen3 能在一张 4090 上跑吗"])
def test_a_family_flagship_is_weighed_against_the_card_not_called_a_cluster(text):
    a = ask(text)
    note = next((x for x in a.warnings if "names no size" in x), "")
    assert "cluster" not in note
    if note:
        m = re.search(r"is about ([\d,]+) GB of weights.*?: (more than|within) the .*?'s ([\d.]+) GB", note)
        assert m, note
        gb, verdict, mem = float(m.group(1).replace(",", "")), m.group(2), float(m.group(3))
        usable = mem * (0.75 if "Apple" in note else 1.0)
        assert (verdict == "more than") == (gb > 0.9 * usable)


@pytest.mark.parametrize("text", [
    "minimum number of A100 80GB to full fine-tune Mistral 7B, seq len 4096, ZeRO-3, no CPU offload?",
    "全参微调 Mistral 7B，seq 4096，ZeRO-3，不 offload，最少要几张 A100 80G？",
    "fewest A100 80GB GPUs for a full fine-tune of Mistral 7B with ZeRO-3 at 4k?"])
def test_a_minimum_count_asked_leads_with_the_count(text):
    a = ask(text)
    # states 16 B × 7.24B = 116 GB, sharded by ZeRO-3: 116 / 1 > 85 GB usable; 116 / 2 = 58 GB + activations: 2 GPUs
    first = a.answer.split("\n\n")[1]
    assert re.match(r"\*\*2(?:×| 张)", first), first


@pytest.mark.parametrize("text,values", [
    ("Llama 3.1 8B bf16 on one H100 80GB with vLLM. (1) how many concurrent 8k-context requests fit in KV cache? "
     "(2) ballpark decode tok/s at batch 1, and total tok/s at batch 32?", (1, 32)),
    ("Qwen2.5-7B on one L40S, vLLM. 1) how much KV cache per token? 2) decode speed at batch 1 and at batch 16?", (1, 16)),
])
def test_a_numbered_item_asked_at_two_values_is_answered_at_each(text, values):
    a = ask(text)
    speed = [x for x in a.asks if x.intent == "inference_speed"]
    assert [x.figures.get("batch") for x in speed] == list(values), [x.ask for x in a.asks]
    for x in speed:  # a batch decodes together: the total is the batch × each stream's rate
        assert x.figures["decode_tokens_per_s_total"] == pytest.approx(x.figures["batch"] * x.figures[
            "decode_tokens_per_s_per_seq"], rel=0.01)


@pytest.mark.parametrize("n,mb,acc,seq", [(16, 2, 8, 8192), (8, 1, 16, 4096)])
def test_time_and_cost_asked_together_without_tokens(n, mb, acc, seq):
    a = ask(f"Full FT Llama 3.1 8B: seq {seq}, micro batch {mb}/GPU, grad accum {acc}, {n}x H100 SXM, ZeRO-3, bf16. "
            "What's memory per GPU, how long will training take and what will it cost at $2.50/GPU-hr?")
    assert [x.intent for x in a.asks] == ["training_memory", "training_time", "cost"], [x.ask for x in a.asks]
    # no dataset size: the time per 1B tokens and one optimizer step of n × micro-batch × accumulation × seq tokens
    assert f"One optimizer step ({n * mb * acc * seq:,} tokens)" in a.answer, a.answer[:2500]


@pytest.mark.parametrize("p4090,p5090,pa6000", [(21000, 22000, 30000), (9000, 25000, 30000)])
def test_options_to_buy_are_priced_at_all_their_cards(p4090, p5090, pa6000):
    a = ask(f"部署 DeepSeek-R1-Distill-Qwen-32B 给内部 10 个人用，上下文 16k。买 2 张 4090（{p4090} 元一张）还是 1 张 5090"
            f"（{p5090} 元）还是 1 张二手 A6000 48G（{pa6000} 元）？")
    head = a.answer.split("\n\n###")[0]
    m = re.search(r"\*\*选 (\d)× ([^*]+?)\*\*（¥([\d,]+)", head)
    assert m, head
    total = {"GeForce RTX 4090": 2 * p4090, "GeForce RTX 5090": p5090, "RTX A6000": pa6000}[m.group(2)]
    assert _num(m.group(3)) == total  # the option's price is all its cards
    held = {x.ask: not x.figures.get("queued_beyond") for x in a.asks}
    cands = {"2× GeForce RTX 4090": 2 * p4090, "1× GeForce RTX 5090": p5090, "1× RTX A6000": pa6000}
    ok = {k: v for k, v in cands.items() if held.get(k, True)}
    assert total == min(ok.values())  # the cheapest of those that hold the load


@pytest.mark.parametrize("inp,out,host", [(2, 4000, 1.5), (5, 8000, 2)])
def test_volume_written_only_as_its_parts_and_a_machine_room_fee(inp, out, host):
    a = ask(f"API vs 自建：DeepSeek 官方 API 输入 2 元/百万 tokens，输出 8 元/百万。我们每天 {inp} 亿输入 tokens、{out} 万输出。"
            f"自建满血 R1 的话 8 卡 H20 141G 整机 130 万，电费+机房每月 {host} 万，按 3 年折旧。哪个便宜？")
    # API a day: inp × 100M × ¥2 + out × 10k × ¥8 per million; owning a month: 1.3M / 36 + the fee (power inside it)
    api_day = inp * 100 * 2 + out / 100 * 8
    assert a.figures["api_per_day"] == pytest.approx(api_day, rel=0.01)
    assert a.request["hosting_per_month"] == host * 1e4 and a.request.get("hosting_includes_power") is True
    assert a.figures["self_hosted_per_month"] == pytest.approx(1.3e6 / 36 + host * 1e4, rel=0.01)


@pytest.mark.parametrize("model,gpus", [("Qwen3-30B-A3B", "1x H100 80G"), ("Qwen3-235B-A22B", "8x H100 FP8"),
                                        ("Qwen3-4B", "1x L40S")])
def test_a_context_past_native_within_the_model_cards_yarn_is_sized(model, gpus):
    a = ask(f"{model} on {gpus}: how many concurrent requests at 128k context?")
    assert "YaRN" in a.answer and a.figures.get("max_concurrent_sequences", 0) >= 1, a.answer[:700]


# --- format choices on the platform: FP8 where the card computes it, no CUDA formats on a Mac, a checkpoint's own name -
@pytest.mark.parametrize("card,native", [("L40S 48GB", True), ("H100", True), ("A100 80GB", False)])
def test_fp8_over_int8_where_the_card_computes_fp8(card, native):
    a = ask(f"Qwen2.5-32B-Instruct on a single {card}. AWQ int4 vs GPTQ int8 vs FP8 - which one and why? 1-3 users, 8k "
            "context, quality matters")
    pick = re.search(r"\*\*pick (\w+)\*\*", a.answer)
    assert pick, a.answer[:700]
    if native:  # same 8 bits; FP8 runs on the tensor cores, INT8 W8A16 dequantises first: never slower, same quality
        assert pick.group(1) == "FP8"
    else:
        assert pick.group(1) in ("FP8", "INT8")


@pytest.mark.parametrize("text", ["Mac Studio M2 Ultra 192G 跑 Qwen2.5-72B，GGUF Q4_K_M、AWQ、FP8 用哪个格式好？速度大概多少",
                                  "M3 Max 128GB: Llama 3.1 70B in Q4_K_M or AWQ or GPTQ, which is faster?"])
def test_cuda_only_formats_are_never_picked_on_a_mac(text):
    head = ask(text).answer.split("\n\n###")[0]
    assert re.search(r"CUDA", head)
    pick = re.search(r"\*\*(?:选|pick) ([^*]+?)\*\*", head, re.I) or re.search(r"\*\*([^*]+?) (?:胜出|wins|is faster)", head)
    assert pick and re.search(r"Q\d|GGUF", pick.group(1), re.I), head


@pytest.mark.parametrize("name", ["Qwen3-235B-A22B-FP8", "Qwen2.5-72B-Instruct-AWQ", "Qwen2.5-32B-Instruct-GPTQ-Int4"])
def test_a_format_in_the_checkpoint_name_is_no_choice(name):
    a = ask(f"8x H20 96G, vllm, {name}, TP=8, max-model-len 32k, avg input 3k output 1k: max concurrency?")
    assert not a.asks, [x.ask for x in a.asks]


@pytest.mark.parametrize("limit,avg", [(32768, 4096), (16384, 2500)])
def test_the_worst_case_at_the_context_limit_is_said(limit, avg):
    a = ask(f"H100, vllm, Llama 3.1 8B, max-model-len {limit // 1024}k, average input {avg - 500} output 500: max concurrency?")
    pool = a.figures["kv_pool_tokens"]
    assert f"**{pool // limit}**" in a.answer  # the pool over the limit: every request at its longest


@pytest.mark.parametrize("text,ok", [
    ("we full fine-tune Llama 3 70B on 4x RTX 4090 with ZeRO-3 at 50,000 tokens/s total. how long for 1B tokens?", False),
    ("我们 8 张 H100 全参训练 Llama 3.1 8B，实测 60000 tokens/s（合计），10B token 要多久？", True),
])
def test_a_measured_training_rate_beyond_peak_compute_is_called_out(text, ok):
    # 70B full: ~6 × 70.6e9 = 4.2e11 FLOPs a token; 4 × 165 TFLOPS = 661e12 FLOPs/s: at most ~1,600 tokens/s at 100%.
    # 8B on 8 H100: 6 × 8.03e9 = 4.8e10 FLOPs a token; 8 × 989e12 / 4.8e10 = ~164,000 tokens/s at 100%: 60,000 is ~37%
    a = ask(text)
    said = bool(re.search(r"cannot be this job|不可能是这个任务", a.answer))
    assert said == (not ok), a.answer[:800]
    if not ok:
        assert a.clarification is not None


@pytest.mark.parametrize("text,long_busy", [
    ("销售说 H20 推理比 H100 快，因为带宽更高，所以 8 卡 H20 跑 Qwen2.5-72B 高并发客服（RAG，prompt 都比较长）吞吐比 8 卡 H100 高。对吗？", True),
    ("vendor says the H20 is faster than the H100 for serving Llama 3.1 70B, high concurrency with long prompts (RAG). true?", True),
    ("销售说 H20 推理比 H100 快，8 卡跑 Qwen2.5-72B，单用户短对话，对吗？", False),
])
def test_a_faster_claim_is_judged_at_the_users_workload(text, long_busy):
    a = ask(text)
    f = a.figures
    h20, h100 = f["requests_per_s_h20"], f["requests_per_s_h100"]
    assert f["claim_correct"] == int(h20 >= h100)
    if long_busy:  # 8k prompts, 64 in flight: prefill is compute-bound, 148 vs 989 dense TFLOPS: the H100 must win
        assert h100 > h20 and f["claim_correct"] == 0


def test_an_unknown_card_of_an_unmatched_memory_offers_its_line_either_side():
    a = ask("will a H100X 120GB run Llama 3.1 70B in bf16?")
    offered = a.answer.split("Did you mean: ")[1].split("\n")[0].split(" / ")
    mem = {g.id: g.memory_gb for g in CAT.gpus}
    # 120 GB: the H100 line's largest below it (H100 NVL, 94 GB) and the nearest 'h' card above it (141 GB)
    assert offered[0].startswith("h100") and mem[offered[0]] < 120 < mem[offered[1]]


@pytest.mark.parametrize("text,family", [("will a H100X 120GB run qwen 3 72b in bf16?", "Qwen 3 72B"),
                                         ("想部署 Qwen2.5-110B，FP8，需要几张 H800？", "qwen2.5-110b")])
def test_a_size_the_family_lacks_is_said_and_no_other_makers_model_offered(text, family):
    a = ask(text)
    assert re.search(rf"{re.escape(family)} does not exist|没有 {re.escape(family)} 这个模型", a.answer, re.I), a.answer[:500]
    assert "Llama 4" not in a.answer.split("\n\n")[1]


@pytest.mark.parametrize("text", ["what GPU should we buy for our LLM project? budget is 50k",
                                  "serve llama 3.1 70b, budget ~200k, what should we buy?", "预算 50k，买什么卡跑 Qwen2.5-32B？"])
def test_a_budget_in_k_is_money_not_a_context(text):
    r = read(text, CAT)
    assert r.request.context is None and r.request.budget
    assert any("currency" in w or "币种" in w for w in r.warnings)  # the currency assumed is said


@pytest.mark.parametrize("phrase,loss", [("expect ~10% MFU loss scaling to 4 nodes", 0.10),
                                         ("MFU drops by 15% at 64 GPUs", 0.15), ("扩到 4 机 MFU 会下降约 8%", 0.08)])
def test_an_expected_mfu_loss_scales_the_measured_mfu(phrase, loss):
    r = _req(f"Pretraining a 3B model on 300B tokens on 32x H100, measured 42% MFU on one node, {phrase}. how long?")
    assert r.mfu == pytest.approx(0.42 * (1 - loss), abs=1e-4)  # a relative loss: 42% × (1 - loss)


@pytest.mark.parametrize("text", [
    "Vendor quoted 'H100 NVL 94G x4' for serving Qwen2.5-72B in bf16. is NVL the same as SXM? does it fit?",
    "报价是 4 张 H100 NVL 跑 Qwen2.5-72B bf16，NVL 和 SXM 有什么区别？放得下吗？"])
def test_two_forms_of_the_card_named_are_compared_beside_the_job(text):
    a = ask(text)
    cmp_ = [x for x in a.asks if x.intent == "compare"]
    assert cmp_ and set(cmp_[0].request["gpus"]) == {"h100-nvl", "h100"}, [x.ask for x in a.asks]
    assert any(x.intent == "inference_memory" for x in a.asks)


@pytest.mark.parametrize("text", ["Qwen 模型微调要多大显存？我们打算买 4090", "how much VRAM to fine-tune llama on one RTX 4090?"])
def test_a_family_alone_on_a_desk_card_asks_size_and_method_with_each_sized(text):
    a = ask(text)
    assert re.search(r"Which .+ size, and LoRA, QLoRA or full|是哪个尺寸的 .+，用 LoRA、QLoRA 还是全参", a.answer), a.answer[:500]
    rows = re.findall(r"^- (.+?): (.+)$", a.answer.split("\n\n")[1], re.M)
    assert len(rows) >= 2
    for _, cells in rows:
        for cell in re.split(r", |，", cells):
            gb = float(re.search(r"([\d,]+) GB", cell).group(1).replace(",", ""))
            if "✅" in cell:  # fits one 24 GB card
                assert gb <= 25.5


# --- a GGUF file runs in llama.cpp, split by layers over consumer cards; a Mac named beside cards is one Mac -----------
@pytest.mark.parametrize("text", ["Llama 3.1 70B Q4_K_M on 2x RTX 3090, 8k context: does it fit and how fast?",
                                  "2 张 3090 跑 Llama 3.1 70B 的 Q4_K_M gguf，8k 上下文，能跑吗？多快？"])
def test_a_gguf_on_two_consumer_cards_is_split_by_layers(text):
    a = ask(text)
    # 70.55e9 × 0.605 B = 42.7 GB (the 0.64 GB embedding stays in RAM) + 8,192 × 320 KiB = 2.7 GB of fp16 KV + 2 × 1.5 GB
    # of CUDA context and compute buffers = 47.7 GB, within 2 × ~25.0 GB usable: every layer on the GPUs
    assert a.figures.get("gpu_layers") == 80 and a.figures.get("fits") == 1, a.answer[:600]
    # one stream reads the two halves one after the other: at most 936 GB/s / 42.7 GB = 21.9 tokens/s
    assert a.figures["decode_tokens_per_s_per_seq"] < 936 / 42.7


def test_a_mac_beside_counted_cards_is_one_mac_and_a_budget_rules_options_out():
    a = ask("home lab, ~$4k budget, one 15A/120V circuit. wanna run Llama 3.3 70B Q4 (gguf) just for myself, want 15+ "
            "tok/s. 2x used 3090, 2x 4090, 2x 5090, or a Mac Studio M3 Ultra 96GB?")
    mac = next(x for x in a.asks if "M3 Ultra" in x.ask)
    assert mac.request["num_gpus"] == 1
    # one M3 Ultra reads 42.7 GB per token at 819 GB/s: at most 19.2 tokens/s for one stream
    assert mac.figures["decode_tokens_per_s_per_seq"] < 819 / 42.7
    head = a.answer.split("\n\n###")[0]
    assert "2× GeForce RTX 4090 (q4_k_m, over your budget" in head  # two new 4090s and a host are past $4k
    assert re.search(r"\*\*Best: 2× GeForce RTX 3090\*\*", head), head


@pytest.mark.parametrize("text", ["Q4_K_M、AWQ、GPTQ-Int4、FP8、NF4 分别是啥？拿 Qwen2.5-72B 来说，各自权重大概占多少显存？",
                                  "Qwen2.5-72B 的 Q4_K_M、AWQ、FP8 权重要多少显存？"])
def test_weights_asked_with_qualifiers_get_the_format_table(text):
    a = ask(text)
    named = len(re.findall(r"Q4_K_M|AWQ|GPTQ|FP8|NF4", text))
    assert sum(k.startswith("weights_gb_") for k in a.figures) == named, a.answer[:400]
