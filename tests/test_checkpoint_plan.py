"""Checkpoint planning: sizes per parameter, write time, the Young/Daly interval, and the CLI."""
from __future__ import annotations

import argparse
import json
import math

import pytest
from pydantic import ValidationError

from tools.checkpoint_plan import (
    DEFAULT_MTBF_HOURS_PER_GPU,
    CheckpointRequest,
    daly_interval_seconds,
    plan_checkpoint,
    young_interval_seconds,
)
from tools.states import lora_shapes
from ui import cli_plan

CHECKPOINT_KEYS = {"checkpoint_gb", "weights_only_gb", "write_seconds", "cluster_mtbf_hours", "interval_minutes",
                   "interval_steps", "assumptions"}


@pytest.fixture
def m70b(model):
    return model("70b")  # generic: exactly 70e9 parameters


def test_full_70b_checkpoint_is_14_bytes_per_parameter(m70b):
    res = plan_checkpoint(CheckpointRequest(model=m70b, method="full", num_gpus=16))
    assert res.checkpoint_gb == pytest.approx(14 * 70e9 / 1e9)  # 980 GB
    assert res.checkpoint_gb == 980.0
    assert res.weights_only_gb == 140.0  # 2 B x 70e9
    assert res.checkpoint_parts_gb == {"weights_bf16": 140.0, "master_weights_fp32": 280.0, "adam_moments_fp32": 560.0}
    assert res.write_seconds == pytest.approx(980 / 5)  # default 5 GB/s: 196 s
    assert any("gradients not saved" in a for a in res.assumptions)


def test_saving_gradients_makes_it_16_bytes(m70b):
    res = plan_checkpoint(CheckpointRequest(model=m70b, method="full", save_gradients=True))
    assert res.checkpoint_gb == 16 * 70  # 1,120 GB


def test_young_interval_by_hand():
    # write 600 s, job MTBF 10 h: sqrt(2 x 600 x 36,000) = 6,573 s = 109.5 min
    assert young_interval_seconds(600, 36_000) == pytest.approx(math.sqrt(2 * 600 * 36_000))
    assert young_interval_seconds(600, 36_000) / 60 == pytest.approx(109.54, abs=0.01)
    assert daly_interval_seconds(600, 36_000) == pytest.approx(6573 - 600, abs=1)  # Daly: minus the write time
    assert daly_interval_seconds(600, 1000) == 1000  # write >= M/2: Daly says checkpoint every M


def test_plan_gives_the_young_interval(m70b):
    # 980 GB at 980/600 GB/s = 600 s; 80 GPU-hours per failure / 8 GPUs = 10 h
    res = plan_checkpoint(CheckpointRequest(model=m70b, num_gpus=8, write_gbps=980 / 600, mtbf_hours_per_gpu=80,
                                            step_seconds=10, restart_minutes=5))
    assert res.write_seconds == pytest.approx(600)
    assert res.cluster_mtbf_hours == 10
    assert res.interval_minutes == pytest.approx(109.54, abs=0.01)
    assert res.interval_steps == 657  # 6,573 s / 10 s per step, rounded down
    assert res.overhead_fraction == pytest.approx(600 / 6572.67, abs=1e-4)  # 9.1% of the time writing
    assert res.expected_lost_minutes_per_failure == pytest.approx(109.54 / 2 + 5, abs=0.01)
    # writing 600/6573 + redone work and restart (3286 + 300) / 36,000 = 0.0913 + 0.0996
    assert res.expected_waste_fraction == pytest.approx(600 / 6572.67 + (6572.67 / 2 + 300) / 36_000, abs=1e-4)
    assert any("cost about 19% of the run" in a for a in res.assumptions)


def test_no_step_seconds_no_steps(m70b):
    res = plan_checkpoint(CheckpointRequest(model=m70b, num_gpus=8))
    assert res.interval_steps is None


def test_default_mtbf_comes_from_llama3(m70b):
    # 16,384 GPUs x 54 days x 24 h / 419 interruptions = 50,678 GPU-hours; default rounded down to 50,000
    assert 16_384 * 54 * 24 / 419 == pytest.approx(50_678, abs=1)
    assert DEFAULT_MTBF_HOURS_PER_GPU == 50_000
    res = plan_checkpoint(CheckpointRequest(model=m70b, num_gpus=1024))
    assert res.cluster_mtbf_hours == pytest.approx(50_000 / 1024, abs=1e-3)  # 48.8 h
    text = " ".join(res.assumptions)
    assert "419 unexpected interruptions" in text and "54 days" in text and "arXiv:2407.21783" in text


def test_fifty_steps_rule_is_explained(m70b):
    res = plan_checkpoint(CheckpointRequest(model=m70b, num_gpus=16, write_gbps=2, step_seconds=10))
    note = next(a for a in res.assumptions if "50-100 steps" in a)
    # 50 steps x 10 s = 500 s of training; 980 GB / 2 GB/s = 490 s of writing
    assert "not a rule" in note and "8.3 min of training" in note and "8.2 min of writing" in note


def test_lora_saves_adapters_and_their_states_only(m70b):
    res = plan_checkpoint(CheckpointRequest(model=m70b, method="lora", num_gpus=1))
    adapter = lora_shapes(m70b, None, 16).params  # rank 16 on every linear layer
    assert res.saved_params == adapter
    assert res.checkpoint_gb == pytest.approx(12 * adapter / 1e9, abs=1e-4)  # fp32 4 + Adam 8
    assert res.weights_only_gb == 140.0  # the whole model in bf16 for an export
    grads = plan_checkpoint(CheckpointRequest(model=m70b, method="qlora", save_gradients=True))
    assert grads.checkpoint_gb == pytest.approx(16 * adapter / 1e9, abs=1e-4)


def test_lora_70b_matches_the_checkpointing_document(model):
    # knowledge/docs/checkpointing.en.md: 207.1e6 adapter params, 0.83 + 1.66 = about 2.5 GB
    res = plan_checkpoint(CheckpointRequest(model=model("llama-3.1-70b"), method="lora"))
    assert res.saved_params == pytest.approx(207.1e6, rel=1e-3)
    assert res.checkpoint_gb == pytest.approx(2.49, abs=0.01)


@pytest.mark.parametrize("field,value", [("num_gpus", 0), ("write_gbps", -1), ("mtbf_hours_per_gpu", 0), ("step_seconds", -3)])
def test_impossible_values_refused(m70b, field, value):
    with pytest.raises(ValidationError) as e:
        CheckpointRequest(model=m70b, **{field: value})
    assert e.value.errors()[0]["loc"] == (field,)


# --- CLI ------------------------------------------------------------------------------------------------

def parser():
    p = argparse.ArgumentParser(prog="gpu-advisor")
    cli_plan.add_parsers(p.add_subparsers(dest="command", required=True))
    return p


def test_cli_plan_checkpoint_json(catalog):
    args = parser().parse_args(["plan", "checkpoint", "--model", "70b", "--task", "full", "--num-gpus", "16", "--json"])
    data, text = cli_plan.run_command(args, catalog)
    assert CHECKPOINT_KEYS <= set(data)
    json.dumps(data)
    assert data["checkpoint_gb"] == 980.0 and data["cluster_mtbf_hours"] == 50_000 / 16
    assert data["interval_steps"] is None
    assert any("generic dense decoder" in a for a in data["assumptions"])  # the catalog's note on '70b'
    assert "checkpoint" in text and "980.00 GB" in text and "Assumptions:" in text


def test_cli_plan_checkpoint_lora_with_steps(catalog):
    args = parser().parse_args(["plan", "checkpoint", "--model", "llama-3.1-70b", "--task", "lora", "--step-seconds", "2"])
    data, text = cli_plan.run_command(args, catalog)
    assert data["method"] == "lora" and data["interval_steps"] == int(data["interval_seconds"] // 2)
    assert "steps" in text


def test_plan_accepts_more_sub_commands(catalog):
    p = parser()
    extra = cli_plan.PLAN_SUBPARSERS.add_parser("parallel")
    extra.set_defaults(plan_handler=lambda args, cat: ({"ok": True}, "ok"))
    assert cli_plan.run_command(p.parse_args(["plan", "parallel"]), catalog) == ({"ok": True}, "ok")


def test_cli_plan_needs_a_sub_command():
    with pytest.raises(SystemExit):
        parser().parse_args(["plan"])
