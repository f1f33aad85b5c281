"""The rules reader, read like the spec: names before numbers, units as people write them, follow-ups."""
from __future__ import annotations

import pytest

from assistant.readers.rules import read
from knowledge.catalog import default_catalog

CATALOG = default_catalog()


def r(text: str, previous: dict | None = None):
    return read(text, CATALOG, previous).request


def test_8x7b_is_mixtral_not_eight_gpus():
    req = r("Can I run Mixtral 8x7B on 2x 4090?")
    assert req.model == "mixtral-8x7b" and req.num_gpus == 2 and req.gpu == "rtx-4090"


@pytest.mark.parametrize("text", ["两台机器，每台8张A100，全参微调70B够吗", "2 servers x 8 A100, full fine-tune of a 70B?",
                                  "we have two boxes with eight A100s each, full finetune 70b?"])
def test_servers_times_gpus_per_server(text):
    req = r(text)
    assert (req.num_gpus, req.nodes, req.gpus_per_node) == (16, 2, 8)  # 2 x 8


def test_concurrent_users_are_a_serving_question_not_rent():
    req = r("how many concurrent users can one H100 serve with Llama 3.1 8B?")
    assert req.intent == "serving" and req.price_per_gpu_hour is None


def test_the_article_title_question_is_a_price_question():
    assert r("A100显卡多少钱？").intent == "price"
    req = r("二手8卡A100服务器多少钱")
    assert req.intent == "price" and req.used and req.server


def test_a_price_the_user_pays_is_a_rate_not_a_budget():
    req = r("我们租A100每小时8块钱，8卡跑3天要多少钱")
    assert req.intent == "cost" and req.price_per_gpu_hour == 8 and req.currency == "CNY" and req.budget is None
    assert req.num_gpus == 8 and req.period_hours == 72  # 3 days x 24 h


def test_hours_a_day_over_months():
    # 三个月 = 3 x 730 h = 2,190 h of calendar time = 91.25 days; 10 h a day -> 912.5 h of use
    req = r("每天用10小时，用三个月，租还是买H100")
    assert req.hours_per_day == 10 and req.period_hours == pytest.approx(912.5)


def test_checkpoint_suffix_sets_the_precision():
    req = r("Qwen2.5-72B-Instruct-AWQ on 2x 4090 with 32k context?")
    assert req.model == "qwen2.5-72b" and req.checkpoint_format == "awq" and req.precision == "int4"
    assert req.context == 32768  # 32k = 32 x 1024


def test_full_in_serving_words_is_not_a_full_fine_tune():
    assert r("DeepSeek-V3 671B 全量 FP8 部署要几张H200").intent == "inference_memory"
    assert r("serve the full 671B DeepSeek-V3 in fp8 on H200s").method is None


def test_an_unknown_card_is_kept_as_unknown():
    req = r("RTX 9090 能跑 Qwen2.5-7B 吗")
    assert req.gpu is None and req.unknown_gpu == "rtx 9090"


def test_follow_ups_change_one_thing_and_keep_the_rest():
    first = r("Qwen2.5-7B 用 LoRA 在一张 4090 上微调，序列 2048，能跑吗")
    for text, changed in [("那 8k 呢", {"seq_len": 8192}), ("两张呢", {"num_gpus": 2}), ("换成H100呢", {"gpu": "h100"}),
                          ("那用QLoRA呢", {"method": "qlora"})]:
        req = r(text, first.model_dump(mode="json"))
        assert req.follow_up and req.intent == "training_memory" and req.model == "qwen2.5-7b"
        for key, value in changed.items():
            assert getattr(req, key) == value, (text, key)
        kept = {"model", "method", "gpu", "num_gpus", "seq_len"} - set(changed)
        assert all(getattr(req, k) == getattr(first, k) for k in kept), text


def test_a_complete_new_question_is_not_merged_into_the_last_one():
    first = r("A100 每卡时 ¥12，租三个月 16 张要多少钱")
    req = r("用两台8卡H800训练70B，1000亿token，要多少天", first.model_dump(mode="json"))
    assert not req.follow_up and req.price_per_gpu_hour is None and req.num_gpus == 16 and req.tokens == 1e11


def test_negated_mentions_are_not_inputs():
    req = r("8x 3090 full sft of Llama-3.1-8B with zero3, mine OOMs w/o offload")
    assert req.offload is None and req.method == "full" and req.zero == 3


@pytest.mark.parametrize("n", [1024, 2048, 4096, 16384])
@pytest.mark.parametrize("form", ["How long to pretrain a 7B model on 2T tokens with {c} H100s?",
                                  "用 {c} 张 H100 预训练 7B 模型 2T token 要多久"])
def test_a_gpu_count_with_a_thousands_separator_is_the_whole_count(n, form):
    from assistant.service import ask

    a = ask(form.format(c=f"{n:,}"))
    assert a.request["num_gpus"] == n                       # '2,048' is 2048, not 48
    assert a.request.get("seq_len") is None                 # and not also read as a sequence length
