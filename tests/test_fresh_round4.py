"""Issue 24/25, from fresh set K's answers: a serving plan the planner sized shows one GPU's memory in that plan's
layout, names the fabric its tensor parallelism really runs over, says which build runs the launch line on a card
CUDA does not, and never prints an estimate outside its own band."""
from __future__ import annotations

import re

import pytest

from assistant.service import ask
from knowledge.catalog import default_catalog
from tools.serving import ServeRequest, plan_serving

CAT = default_catalog()


def _weights_row_gb(text: str) -> float:
    m = re.search(r"^\|\s*(?:weights|权重)\s*\|\s*([\d.,]+)\s*\|", text, re.M)
    assert m, text
    return float(m.group(1).replace(",", ""))


@pytest.mark.parametrize("text", [
    "we must buy Ascend 910B only. deploy Qwen2.5-72B-Instruct for internal Q&A, 25 concurrent users. how many cards?",
    "公司只让采购国产卡（昇腾910B），要部署 Qwen2.5-72B-Instruct 做内部问答，25 个并发，要几张？",
    "how many A100 80GB to serve Qwen2.5-72B-Instruct to 25 concurrent users?"])
def test_the_memory_terms_of_a_planned_layout_are_one_gpu_of_that_layout(text):
    # Qwen2.5-72B: 72.7e9 parameters x 2 bytes (bf16) = 145.4 GB of weights. A plan at TP4 holds a quarter on each GPU,
    # 36.4 GB; the table under it once showed 145.41 GB 'per GPU' beside a TP4 plan, with no room for KV
    a = ask(text)
    tp = int(a.figures["serve_tp"])
    assert tp > 1
    assert _weights_row_gb(a.answer) == pytest.approx(145.4 / tp, rel=0.03)


@pytest.mark.parametrize("gpu,n,fabric", [
    ("ascend-910b", 4, "HCCS"),            # 8-NPU HCCS mesh in the Atlas 800T A2
    ("mi300x", 8, "Infinity Fabric"),      # 8-GPU full mesh on the OAM platform
    ("h100", 8, "NVLink"),                 # NVSwitch on HGX
    ("a100-80gb-pcie", 2, "NVLink"),       # a bridged pair
    ("a100-80gb-pcie", 4, None),           # two bridged pairs talk over PCIe
    ("rtx-4090", 2, None)])                # no NVLink at all
def test_tensor_parallelism_runs_over_the_cards_own_fabric(gpu, n, fabric):
    assert CAT.gpu(gpu)[0].scale_up_fabric(n) == fabric


def test_a_tp4_replica_of_bridged_pcie_pairs_is_slower_than_one_on_a_full_fabric():
    # the same card's bandwidth and compute; only the link differs: TP4 over PCIe (25 GB/s) pays more per all-reduce
    # than over the 600 GB/s fabric it was once credited with
    model = CAT.model("llama-3.1-70b")[0]
    sxm, pcie = CAT.gpu("a100-80gb")[0], CAT.gpu("a100-80gb-pcie")[0]
    assert sxm.memory_bandwidth_gbps > 0 and pcie.scale_up_fabric(4) is None and sxm.scale_up_fabric(4) == "NVLink"
    itl = {g.id: plan_serving(ServeRequest(model=model, gpu=g, users=8, tp=4)).itl_ms for g in (sxm, pcie)}
    assert itl["a100-80gb-pcie"] > itl["a100-80gb"]


@pytest.mark.parametrize("gpu,said", [("ascend-910b", "vllm-ascend"), ("mi300x", "ROCm"), ("h100", None)])
def test_the_launch_line_says_which_build_runs_it_on_the_card(gpu, said):
    plan = plan_serving(ServeRequest(model=CAT.model("qwen2.5-72b")[0], gpu=CAT.gpu(gpu)[0], users=25))
    line = plan.launch_command
    assert line.startswith("vllm serve")
    if said:
        assert said in line
    else:  # CUDA is what `vllm serve` runs on by default: no note
        assert "vllm-ascend" not in line and "ROCm" not in line and "MindIE" not in line


@pytest.mark.parametrize("text", ["serve Qwen2.5-72B-Instruct on 4 A100 80GB for 25 concurrent users",
                                  "serve Llama 3.1 70B on 8 H100 for 100 concurrent users",
                                  "用 8 张 H20 部署 DeepSeek-V3，并发 64，首 token 和每 token 延迟多少？"])
def test_every_estimate_lies_inside_the_band_printed_beside_it(text):
    a = ask(text)
    for m in re.finditer(r"(?:ITL|TTFT|每 token|首 token)\s*≈\s*([\d.]+)\s*(ms|s|毫秒|秒)\s*[（(](?:likely|区间)\s*"
                         r"([\d.]+)-([\d.]+)", a.answer):
        x, lo, hi = (float(m.group(i)) for i in (1, 3, 4))
        assert lo <= x + 0.01 and x <= hi + 0.51, m.group(0)  # rounding: ms shown to the unit, s to the hundredth
