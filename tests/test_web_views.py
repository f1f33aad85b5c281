"""What the web UI shows, computed by pure functions: chart rows, verdict, tables, the calculator and its CLI line."""
from __future__ import annotations

import json
import shlex

import pytest

from assistant.service import ask
from ui.cli import run as cli_run
from ui.web.calculator import CalcForm, calculate, cli_command
from ui.web.calculator_tab import compute
from ui.web.gpu_table import COLUMNS, compare_frame, source_url, spec_frame
from ui.web.views import breakdown_frame, citations_markdown, options_rows, verdict_markdown


@pytest.fixture(scope="module")
def answer70():
    return ask("A100够不够微调70B？")


def test_chart_has_one_stacked_bar_per_option_that_sums_to_its_total(answer70):
    frame = breakdown_frame(answer70.tool_calls, "zh")
    sized = [c for c in answer70.tool_calls if c.name == "size_train"]
    assert len(sized) == 4                                   # qlora, lora, full on 1 GPU; full on 8 with offload
    for call in sized:
        label = next(o for o in frame["option"].unique() if o.startswith(call.args["method"]) and
                     (f"{call.result['num_gpus']}×" in o) and (("offload" in o) == ("offload" in call.args)))
        total = frame[frame["option"] == label]["GB"].sum()
        assert total == pytest.approx(call.result["per_gpu_gb"], abs=0.05)   # components rounded to 0.01 GB each


def test_chart_shows_the_usable_memory_of_the_gpu_as_a_line_not_a_bar(answer70):
    from ui.web.views import capacities, chart

    frame = breakdown_frame(answer70.tool_calls, "en")
    assert not frame["option"].str.contains("usable").any()                # no 'usable' bar among the options
    # A100 80GB: nvidia-smi reports 81920 MiB = 85.899 GB; less the 768 MiB (0.805 GB) driver reservation = 85.09 GB
    assert capacities(answer70.tool_calls) == {"a100-80gb": pytest.approx(81920 * 2**20 / 1e9 - 768 * 2**20 / 1e9, abs=0.01)}
    spec = chart(answer70.tool_calls, "en").to_dict()
    rules = [layer for layer in spec["layer"] if layer["mark"]["type"] == "rule"]
    assert len(rules) == 1 and rules[0]["mark"]["strokeDash"]            # one dashed line at the card's usable memory


def test_one_huge_bar_cannot_hide_the_answer(answer70):
    """Full fine-tuning on one GPU (1,126 GB) would flatten QLoRA (49 GB) on a linear axis from 0 to 1,240: the axis is
    cut above LoRA's 149.3 GB (the tallest bar within 2.5x of the card: 149.3 x 1.15 = 171.7 GB), the full bar is
    clipped and labelled with its real total, and the cut is said."""
    from ui.web.views import chart

    spec = chart(answer70.tool_calls, "en").to_dict()
    bars = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "bar")
    assert bars["mark"]["clip"] is True
    assert bars["encoding"]["y"]["scale"]["domain"] == [0, pytest.approx(149.29 * 1.15, abs=0.1)]   # zero-based, cut
    texts = spec["datasets"]
    labels = [row["text"] for rows in texts.values() for row in rows if "text" in row]
    assert "49.0 GB" in labels and "149.3 GB" in labels and "▲ 1126.0 GB" in labels   # as the verdict writes them
    assert "axis cut at 172 GB" in spec["title"]["subtitle"][0]


def test_each_component_keeps_its_colour_and_is_named_in_chinese(answer70):
    from ui.web.charts import component_color
    from ui.web.views import chart

    zh = chart(answer70.tool_calls, "zh").to_dict()
    scale = next(layer for layer in zh["layer"] if layer["mark"]["type"] == "bar")["encoding"]["color"]["scale"]
    colours = dict(zip(scale["domain"], scale["range"]))
    assert colours["权重"] == component_color("weights") and colours["激活值"] == component_color("activations")
    inference = ask("Can one RTX 4090 serve Llama 3.1 8B in int4 with a 32k context?")
    en = chart(inference.tool_calls, "en").to_dict()
    scale = next(layer for layer in en["layer"] if layer["mark"]["type"] == "bar")["encoding"]["color"]["scale"]
    assert dict(zip(scale["domain"], scale["range"]))["weights"] == colours["权重"]   # same colour on another chart


def test_verdict_and_options_table(answer70):
    understood, verdict = verdict_markdown(answer70).split("\n\n")
    assert understood.startswith("<small>理解为：") and understood.endswith("</small>")   # what was understood, on top
    assert verdict.startswith("### ✔ qlora · 1× a100-80gb: **放得下** (49.0 GB/GPU)")
    headers, rows = options_rows(answer70)
    assert headers == ["方案", "放得下", "每卡 GB", "最少卡数"]
    assert [r[0] for r in rows] == ["qlora · 1× a100-80gb", "lora · 1× a100-80gb", "full · 1× a100-80gb"]
    assert [r[1] for r in rows] == ["是", "否", "否"]


def test_citations_carry_source_and_as_of(answer70):
    md = citations_markdown(answer70)
    for c in answer70.citations:
        assert c.source in md and (c.as_of is None or c.as_of in md)


def test_calculator_matches_the_cli_line_it_prints(catalog):
    form = CalcForm(mode="train", model="llama-3.1-70b", method="qlora", gpu="a100-80gb", seq_len=4096)
    res = calculate(form, catalog)
    assert res.cli == "gpu-advisor size train --model llama-3.1-70b --gpu a100-80gb --method qlora --seq-len 4096"
    code, out = cli_run(shlex.split(res.cli)[1:] + ["--json"])
    assert code == 0 and json.loads(out)["per_gpu_gb"] == pytest.approx(res.per_gpu_gb)


def test_calculator_inference_line_round_trips(catalog):
    form = CalcForm(mode="infer", model="qwen2.5-72b", gpu="l40s", num_gpus=2, weights="int4", context=32768)
    res = calculate(form, catalog)
    assert cli_command(form) == ("gpu-advisor size infer --model qwen2.5-72b --gpu l40s --num-gpus 2 --precision int4 "
                                 "--context 32768")
    code, out = cli_run(shlex.split(res.cli)[1:] + ["--json"])
    assert json.loads(out)["per_gpu_gb"] == pytest.approx(res.per_gpu_gb)


def test_changing_the_gpu_changes_the_verdict(catalog):
    values = lambda gpu: ["train", "llama-3.1-70b", gpu, 1, "qlora", 2048, 1, "mixed", "auto", "none", "bf16", 4096, 1, "hf"]
    big, _, _, _, _ = compute(catalog, "en", *values("a100-80gb"))
    small, _, table, _, _ = compute(catalog, "en", *values("a100-40gb"))
    assert "✔ fits" in big and "✘ does not fit" in small   # ~49 GB of QLoRA state: above 40 GB, below 80 GB
    assert table["headers"] == ["component", "GB"] and table["data"][-1][0] == "= per GPU"


def test_calculator_bad_input_is_a_message(catalog):
    verdict, chart, table, cli, _ = compute(catalog, "en", "train", "llama-9000b-nope", "a100-80gb", 1, "qlora", 2048, 1,
                                         "mixed", "auto", "none", "bf16", 4096, 1, "hf")
    assert verdict.startswith("### ⚠") and "gpu-advisor models" in verdict and chart is None and cli == ""
    verdict, *_ = compute(catalog, "en", "train", "llama-3.1-8b", "a100-80gb", 0, "qlora", 2048, 1, "mixed", "auto",
                          "none", "bf16", 4096, 1, "hf")
    assert "num_gpus" in verdict and "greater than or equal to 1" in verdict
    zh, *_ = compute(catalog, "zh", "train", "llama-3.1-8b", "a100-80gb", 0, "qlora", 2048, 1, "mixed", "auto",
                     "none", "bf16", 4096, 1, "hf")
    assert zh == "### ⚠ 卡数：应不小于 1（输入 0）"                       # the form's own label, the rule, the value
    zh, *_ = compute(catalog, "zh", "train", "llama-9000b-nope", "a100-80gb", 1, "qlora", 2048, 1, "mixed", "auto",
                     "none", "bf16", 4096, 1, "hf")
    assert zh.startswith("### ⚠ 没有这个模型：'llama-9000b-nope'")


def test_spec_table_labels_dense_throughput_and_links_sources(catalog):
    frame = spec_frame(catalog.gpus)
    labels = [label for _, label in COLUMNS]
    assert "BF16 dense TFLOPS" in labels and "FP8 dense TFLOPS" in labels and "memory GB (decimal)" in labels
    assert not any("TFLOPS" in x and "dense" not in x and "non-tensor" not in x for x in labels)
    assert len(frame) == len(catalog.gpus)
    h100 = catalog.gpu("h100")[0]
    row = frame[frame["id"] == "h100"].iloc[0]
    assert row["BF16 dense TFLOPS"] == h100.bf16_dense_tflops and source_url(h100) in row["GPU"]
    assert set(spec_frame(catalog.gpus, vendor="Huawei")["vendor"]) == {"Huawei"}
    assert (spec_frame(catalog.gpus, min_memory_gb=141)["memory GB (decimal)"] >= 141).all()


def test_compare_frame_puts_gpus_side_by_side(catalog):
    gpus = [catalog.gpu(x)[0] for x in ("a100-80gb", "h20", "h200")]
    frame = compare_frame(gpus)
    assert list(frame.columns) == ["field", "a100-80gb", "h20", "h200"]
    bw = frame[frame["field"] == "bandwidth GB/s"].iloc[0]
    assert bw["h200"].startswith(f"[{gpus[2].memory_bandwidth_gbps:g}](http")          # value linked to its source


def test_calculator_serving_mode_is_the_planner_and_round_trips(catalog):
    form = CalcForm(mode="serve", model="llama-3.1-70b", gpu="h100", users=100, prompt_len=2048, output_len=512,
                    ttft_s=1, itl_ms=50)
    res = calculate(form, catalog)
    assert res.cli == ("gpu-advisor plan serve --model llama-3.1-70b --gpu h100 --users 100 --prompt-len 2048 "
                       "--output-len 512 --ttft 1s --itl 50ms")
    code, out = cli_run(shlex.split(res.cli)[1:] + ["--json"])
    d = json.loads(out)
    assert code == 0 and f"### {d['total_gpus']} × h100" in res.headline and d["launch_command"] in res.headline
    assert res.breakdown_gb["kv_cache"] > 0 and res.call.name == "plan_serve"
    verdict, _, table, cli, _ = compute(catalog, "zh", "serve", "llama-3.1-70b", "h100", 1, "qlora", 2048, 1, "mixed",
                                     "auto", "none", "native", 4096, 1, "hf", 100, 2048, 512, 1, 50, "vllm")
    assert verdict.startswith(f"### {d['total_gpus']} 张 h100") and cli == res.cli     # the same plan, said in zh
    assert f"token 间隔 {d['itl_ms']:.0f} 毫秒" in verdict and "¥" in verdict


def test_memory_and_comparison_charts_start_at_zero(catalog):
    from ui.web.charts import axis_top
    from ui.web.gpus_tab import zero_based
    from ui.web.views import chart

    res = calculate(CalcForm(mode="train", model="llama-3.1-70b", method="qlora", gpu="a100-80gb"), catalog)
    spec = chart([res.call]).to_dict()
    bars = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "bar")
    # QLoRA 70B ~49.3 GB under the 85.09 GB card: no cut, the top is the card + 10%: 85.09 x 1.1 = 93.6 GB
    assert bars["encoding"]["y"]["scale"]["domain"] == [0, pytest.approx(85.09 * 1.1, abs=0.05)]
    assert axis_top([10.0, 20.0], []) == (pytest.approx(22.0), False)           # no card: the tallest bar + 10%
    assert axis_top([150.4], [42.1]) == (pytest.approx(165.44), False)       # one bar, far above: to scale, not cut
    import pandas as pd
    bw = zero_based(pd.DataFrame({"GPU": ["a100-80gb", "h20", "rtx-4090"], "value": [2039.0, 4000.0, 1008.0]}))
    assert bw["y_lim"] == [0, pytest.approx(4400.0)]                     # the 1,008 GB/s bar keeps its length


@pytest.mark.parametrize("question, expect", [
    ("How long to train Llama 3.1 8B on 10B tokens with 8 H100?", r"### ≈ \d+\.\d days \([\d,]+ h\) · band [\d.]+-[\d.]+ days · [\d,]+ GPU-hours"),
    ("Rent or buy 8 H100 for a year?", r"### cheaper: (buy|rent) · rent \$[\d,]+ vs buy \$[\d,]+ · break-even [\d.]+ months"),
    ("how many H100 for 100 users of a 70B model at 8k context",
     r"### \d+× h100 \(TP\d+ × \d+\) · TTFT [\d.]+ s · ITL \d+ ms · \$[\d.]+/1M output tokens"),
    ("8张H100训Llama-3.1-8B，100亿token要多久", r"### ≈ \d+\.\d 天（[\d,]+ 小时） · 区间 [\d.]+-[\d.]+ 天 · [\d,]+ GPU·时 · ¥[\d,]+（\$[\d,]+）"),
])
def test_every_intent_has_a_verdict_with_its_number(question, expect):
    import re

    from assistant.service import ask

    a = ask(question)
    verdict = verdict_markdown(a).split("\n\n")[-1]
    assert re.match(expect, verdict), verdict


def test_settings_say_in_words_what_state_things_are_in():
    from ui.web.status import backend_badge, index_badge, sessions_badge

    assert backend_badge({"backend": "rules", "ok": True}, "zh").startswith("🟢 **回答引擎：规则规划器**")
    assert "unreachable" not in backend_badge({"backend": "openai:local", "ok": False, "detail": "connection refused"},
                                              "en") and backend_badge({"backend": "openai:local", "ok": False,
                                                                       "detail": "connection refused"}, "en").startswith("🔴")
    # not 'ready: false, indexed: 0' while it loads: what is happening and when it will be ready
    assert index_badge({"ready": False, "chunks": 0}, "en").startswith("🟡 **Retrieval index: not loaded yet**")
    assert index_badge({"ready": True, "chunks": 402}, "zh").startswith("🟢 **检索索引：402 段**")
    assert sessions_badge("redis redis://h:6379/0", False, "zh").startswith("🔴 **对话记录：Redis（多副本共享） 无法连接**")
    assert sessions_badge("sqlite", True, "en") == "🟢 **Conversations: a SQLite file on this machine**"


@pytest.mark.parametrize("question", ["A100够不够微调70B？", "how many H100 for 100 users of a 70B model at 8k context",
                                      "Can one RTX 4090 serve Llama 3.1 8B in int4 with a 32k context?"])
def test_open_in_calculator_reproduces_the_verdict(question, catalog):
    from ui.web.views import calc_prefill

    a = ask(question)
    res = calculate(CalcForm(**calc_prefill(a)), catalog)
    if a.figures.get("serve_total_gpus"):               # the serving plan: the same GPU count and layout
        assert res.min_gpus == a.figures["serve_total_gpus"] and res.call.result["tp"] == a.figures["serve_tp"]
    else:                                                # the verdict's configuration: the same GB per GPU
        assert res.per_gpu_gb == pytest.approx(a.verdict.per_gpu_gb, rel=1e-9)


def test_nothing_to_open_for_an_answer_that_sized_nothing():
    from ui.web.views import calc_prefill

    assert calc_prefill(ask("How long to pretrain a 7B model on 1T tokens with 64 A100s?")) is None


def test_the_verdict_of_several_asks_is_their_comparison_and_rates_have_a_verdict():
    from assistant.service import ask
    from ui.web.views import verdict_markdown

    v = verdict_markdown(ask("Full fine-tune Llama 3.1 8B on 2 A100 80GB: do we need CPU offload?"))
    assert "without offload" in v and "**" not in v.split("</small>")[-1]
    # 8 x $3.85 (the table's typical on-demand H100 rate) = $30.80 an hour; x 730 h = $22,484 a month
    v = verdict_markdown(ask("How much would it cost to rent 8 H100s?"))
    assert "$30.80/h" in v and "$22,484/month" in v
