"""Published training runs: every record sourced and valid, figures as published, names found in questions."""
from __future__ import annotations

import pytest
import yaml
from pydantic import ValidationError

from knowledge.runs import DATA_PATH, find_run, find_runs, load_training_runs
from knowledge.schemas import TrainingRun


def _run(run_id: str) -> TrainingRun:
    return next(r for r in load_training_runs() if r.id == run_id)


def test_every_row_validates_and_carries_a_source():
    rows = yaml.safe_load(DATA_PATH.read_text(encoding="utf-8"))
    assert len(rows) >= 12
    for row in rows:
        run = TrainingRun(**row)
        assert run.source.strip() and "http" in run.source and run.as_of.strip(), run.id
        assert run.gpu_hours_scope.strip(), run.id
    assert len({r["id"] for r in rows}) == len(rows)


def test_gpu_and_model_ids_exist_in_the_catalog(catalog):
    gpu_ids = {g.id for g in catalog.gpus}
    model_ids = {m.id for m in catalog.models}
    for run in load_training_runs():
        assert run.gpu in gpu_ids, run.id
        assert run.model is None or run.model in model_ids, run.id


def test_llama_2_70b_is_table_2_of_the_llama_2_paper():
    run = _run("llama-2-70b")
    # Touvron et al. 2023, Table 2: 1,720,320 A100-80GB GPU-hours, 2.0T pre-training tokens.
    assert run.gpu_hours == 1_720_320
    assert run.gpu == "a100-80gb" and run.tokens == 2.0e12 and run.model == "llama-2-70b"


def test_llama_2_sizes_add_up_to_the_published_total():
    # Table 2 / model card: "a cumulative 3.3M GPU hours", total row 3,311,616.
    ids = ["llama-2-7b", "llama-2-13b", "llama-2-34b", "llama-2-70b"]
    assert sum(_run(i).gpu_hours for i in ids) == 3_311_616


def test_llama_3_and_3_1_cards_add_up_to_their_totals():
    # Llama 3 card: 1.3M + 6.4M = 7.7M; Llama 3.1 card: 1.46M + 7.0M + 30.84M = 39.3M H100-80GB hours.
    assert _run("llama-3-8b").gpu_hours + _run("llama-3-70b").gpu_hours == pytest.approx(7.7e6)
    total = sum(_run(i).gpu_hours for i in ("llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"))
    assert total == pytest.approx(39.3e6)
    assert all(_run(i).gpu == "h100" for i in ("llama-3-8b", "llama-3.1-405b"))


def test_deepseek_v3_total_and_stages_are_table_1():
    run = _run("deepseek-v3")
    assert run.gpu == "h800" and run.gpu_hours == 2_788_000
    assert run.gpu_hours_breakdown == {"pre-training": 2_664_000, "context extension": 119_000, "post-training": 5_000}
    assert (run.params, run.active_params, run.tokens, run.num_gpus) == (671e9, 37e9, 14.8e12, 2048)


def test_bloom_and_falcon_figures():
    bloom = _run("bloom-176b")
    assert (bloom.gpu_hours, bloom.num_gpus, bloom.tokens, bloom.gpu) == (1_082_990, 384, 366e9, "a100-80gb")
    falcon = _run("falcon-180b")
    assert (falcon.gpu, falcon.num_gpus, falcon.tokens, falcon.gpu_hours) == ("a100-40gb", 4096, 3.5e12, 7e6)


def test_opt_has_no_invented_gpu_hours():
    run = _run("opt-175b")
    assert run.gpu_hours is None and run.num_gpus == 992 and run.wall_days == 33


def test_reported_mfu_only_where_published():
    assert _run("llama-3.1-405b").reported_mfu == 0.41
    assert {r.id for r in load_training_runs() if r.reported_mfu is not None} == {"llama-3.1-405b"}


@pytest.mark.parametrize("text,expected", [
    ("Llama 2 70B", "llama-2-70b"),
    ("llama2-70b 用了多少 GPU 小时？", "llama-2-70b"),
    ("训练 Llama 3.1 405B 花了多少卡时", "llama-3.1-405b"),
    ("How many H800 hours did DeepSeek-V3 take?", "deepseek-v3"),
    ("DeepSeek V3训练成本是多少", "deepseek-v3"),
    ("BLOOM 用了几张 A100", "bloom-176b"),
    ("Falcon-180B took how many GPUs?", "falcon-180b"),
    ("Meta-Llama-3-8B 预训练用了多少 H100 小时", "llama-3-8b"),
    ("Llama 3.1 8B", "llama-3.1-8b"),
    ("llama-2-7b-chat", "llama-2-7b"),
    ("ＯＰＴ－１７５Ｂ", "opt-175b"),
])
def test_find_run_resolves_names_in_english_and_chinese(text, expected):
    run = find_run(text)
    assert run is not None and run.id == expected


@pytest.mark.parametrize("text", ["Llama 9 900B", "Llama 2", "DeepSeek-V3.1", "BloombergGPT", "BLOOMZ", "optimizer", ""])
def test_find_run_refuses_what_the_table_does_not_hold(text):
    assert find_run(text) is None


def test_find_runs_keeps_mention_order():
    assert [r.id for r in find_runs("Llama 3.1 405B 和 Llama 2 70B 比较")] == ["llama-3.1-405b", "llama-2-70b"]


def test_loaded_list_is_a_copy():
    runs = load_training_runs()
    runs.clear()
    assert load_training_runs()


def test_schema_refuses_a_run_without_gpu_hours_or_cluster_and_duration():
    base = dict(id="x", name="X", params=1_000_000_000, gpu="a100-80gb", gpu_hours_scope="pre-training",
                tokens=1e9, source="a paper, https://example.org", source_kind="paper", as_of="2024-01-01")
    with pytest.raises(ValidationError, match="num_gpus and wall_days"):
        TrainingRun(**base, num_gpus=8)
    with pytest.raises(ValidationError):
        TrainingRun(**base, gpu_hours=10.0, flops=1e20)  # extra="forbid"
    with pytest.raises(ValidationError, match="breakdown"):
        TrainingRun(**base, gpu_hours=100.0, gpu_hours_breakdown={"pre-training": 50.0})
    assert TrainingRun(**base, num_gpus=8, wall_days=1.5).gpu_hours is None


def test_run_for_a_bare_size_only_when_one_run_has_it_and_no_other_model_is_named():
    from knowledge.runs import run_for

    # Llama 3.1 405B is the only 405e9-parameter run; 'OLMo 7B' names a model the table does not hold
    assert run_for("is 30.84m gpu hours for 405b on 15.6t tokens consistent with 40% mfu?", "405b").id == "llama-3.1-405b"
    assert run_for("olmo 7b 官方说训了多少 token", "7b") is None
    assert run_for("how long did it take?", "llama-3.1-70b").id == "llama-3.1-70b"  # the latest run of that model
