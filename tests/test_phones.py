"""Issue 24, 'hardware words': a phone is a device with its chip's memory bandwidth and the share of its memory one app
can use, not 'a GPU' without a speed (fresh sets H, I and J each had phone questions, all answered 'which GPU?' or
without a speed)."""
from __future__ import annotations

import pytest

from assistant.readers.rules import read
from assistant.service import ask
from knowledge.catalog import default_catalog, phone_gpu_id, phones

CAT = default_catalog()


def test_every_phone_record_has_a_source_and_a_date():
    for p in phones():
        assert p.source and p.as_of and 0 < p.app_memory_share <= 1


@pytest.mark.parametrize("text,ram,bw", [
    ("我是 12GB 内存的安卓机（骁龙 8 Gen 3），能跑什么模型？", 12, 76.8),  # LPDDR5X 9.6 Gb/s x 64 bit / 8 = 76.8 GB/s
    ("Snapdragon 8 Gen 2 phone with 16GB RAM: what LLM fits?", 16, 67.2),  # 8.4 Gb/s x 64 / 8 = 67.2 GB/s
    ("a mid-range Android phone with 8GB RAM: biggest model I can ship?", 8, 34.1),  # LPDDR4X-4266 x 8 B = 34.1 GB/s
    ("flagship android, 12GB of RAM, offline chat model?", 12, 76.8)])
def test_a_phone_is_its_chips_bandwidth_and_half_its_memory(text, ram, bw):
    r = read(text, CAT).request
    g = CAT.gpu(r.gpu)[0]
    assert r.device_kind == "phone" and r.ram_gb is None  # the phone's RAM is the device's memory, not a host's
    assert g.memory_bandwidth_gbps == bw and g.memory_gb == pytest.approx(ram * 0.5)


def test_a_named_chip_wins_over_the_phone_class():
    gid, rec, said = phone_gpu_id("my android phone has a snapdragon 8 gen 3", 12)
    assert said == "snapdragon 8 gen 3"
    assert rec.id == "snapdragon-8-gen-3" and gid == "6GB:76.8:1"


def test_the_biggest_model_and_its_speed_on_a_phone_are_both_answered():
    a = ask("building an offline notes assistant app, must run fully on-device on a mid-range Android phone with 8GB "
            "RAM. what's the biggest model I can realistically ship, and what speed would users see?")
    memory, speed = a.asks[0], a.asks[1]
    # 4 GB for the app: in int4 (~0.75 B per parameter with embeddings) about 2.5B parameters fit at 4k context
    assert 1.5 <= memory.figures["largest_int4_params_b"] <= 3.5
    # the speed asked is the biggest usable real model's (named in the first answer), in Q4_K_M (~0.6 B per parameter):
    # its weights read once per token at 80% of 34.1 GB/s = 27.3 GB/s is the most it can do
    model = CAT.model(memory.figures["biggest_usable_model"])[0]
    ceiling = 27.3 / (model.params_total * 0.6 / 1e9)
    tps = speed.figures["decode_tokens_per_s_per_seq"]
    assert 5 <= tps <= ceiling and speed.figures.get("fits", 1)
    assert "phone" in a.answer.lower()


def test_the_rtx_3060_12gb_is_a_card_with_its_bandwidth():
    # 15 Gbps x 192 bits / 8 = 360 GB/s; 12 GB GDDR6 (nvidia-smi 12288 MiB)
    g = CAT.gpu("my 3060 12gb".split(" ", 1)[1])[0]
    assert g.id == "rtx-3060" and g.memory_bandwidth_gbps == 360 and g.memory_bytes == 12288 * 2**20
