"""Properties of the rules reader: no text crashes it, and English cue words never fire inside other words."""
from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.readers import cues, slots
from assistant.readers.rules import read
from assistant.request import Request
from knowledge.catalog import default_catalog

CATALOG = default_catalog()
# Letters, digits, CJK, units and the punctuation people type around numbers.
ALPHABET = string.ascii_letters + string.digits + " .,?!-x×*/%$¥：，。？万亿卡张块台一二两三八十百千小时天月年" + "bfkgtBGKT"
READERS = (slots.method, slots.precision, slots.engine, slots.interconnect, slots.optimizer_and_sharding, slots.users)
# Cue words of the intent table and the slot readers (English).
CUE_WORDS = ["rent", "buy", "full", "run", "serve", "lora", "qlora", "cost", "price", "users", "speed", "fit", "memory",
             "vram", "train", "vs", "or", "sft", "ft", "bill", "own", "tco", "roi", "eta", "qps", "nvlink", "pcie", "vllm",
             "ollama", "fsdp", "offload", "adam", "sgd", "bf16", "fp8", "int4", "awq", "concurrent", "latency", "oom",
             "why", "explain", "recommend", "cheapest", "compare", "versus", "spec", "tflops", "report", "paper", "ib"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=ALPHABET, max_size=200))
def test_reading_any_text_gives_a_valid_request(text):
    reading = read(text, CATALOG)
    assert isinstance(reading.request, Request)
    req = reading.request
    assert req.num_gpus is None or req.num_gpus >= 0
    assert all(v is None or v > 0 for v in (req.seq_len, req.context, req.tokens, req.period_hours, req.price_per_gpu_hour))
    follow = read(text[::-1], CATALOG, previous=req.model_dump(mode="json"))  # a follow-up to it reads too
    assert isinstance(follow.request, Request)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CUE_WORDS), st.text(alphabet="jq", min_size=1, max_size=5), st.text(alphabet="jq", min_size=1, max_size=5))
def test_cue_words_do_not_fire_inside_other_words(word, pre, suf):
    token = f"{pre}{word}{suf}".replace("q", "j")  # 'q' + 'lora' would spell QLoRA, a real cue
    assert cues.score(token)[0] == {}
    for reader in READERS:
        assert reader(token) == {}, reader.__name__


@pytest.mark.parametrize("word", ["concurrent", "current", "different", "parent", "transparent", "torrent", "fully",
                                  "colorado", "explorations", "software", "draft", "often", "shift", "known", "growth",
                                  "costume", "priceless", "fitness", "outfit", "userspace", "buyers", "orbit", "forest"])
def test_real_words_that_contain_cue_words_are_not_cues(word):
    scores, _ = cues.score(word)
    assert "cost" not in scores and "price" not in scores and "training_memory" not in scores
    assert slots.method(word) == {} and slots.users(word) == {}


def test_a_100k_character_message_is_read_in_part_and_said_so():
    reading = read("A100够不够微调70B？" + "好" * 100_000, CATALOG)
    assert reading.request.model == "70b" and reading.request.gpu == "a100-80gb"
    assert any("only the first 4,000 were read" in w for w in reading.warnings)
