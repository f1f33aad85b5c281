"""The eval harness: scoring, reports, run comparison, and the CI quality gate over the real set."""
from __future__ import annotations

import json
from pathlib import Path

from evals import run as ev
from ui.cli import main

SAMPLE = Path(__file__).resolve().parent / "data" / "eval_sample.yaml"


def test_each_check_is_scored_and_a_case_passes_only_if_all_do():
    results = ev.run(ev.load_cases(SAMPLE), progress=False)
    by_id = {r.id: r for r in results}
    assert by_id["sample-faq-zh"].passed and by_id["sample-multiturn"].passed
    wrong = by_id["sample-wrong-on-purpose"]
    assert not wrong.passed and [c.name for c in wrong.checks if not c.ok] == ["verdict.method"]


def test_summary_reports_and_compare(tmp_path):
    results = ev.run(ev.load_cases(SAMPLE), progress=False)
    summary = ev.summarise(results)
    assert {"cases", "passed", "pass_rate", "by_intent", "by_lang", "latency_ms_p50", "latency_ms_p95"} <= set(summary)
    assert summary["cases"] == 3 and summary["passed"] == 2
    ev.write_report(results, summary, tmp_path)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["summary"]["pass_rate"] == summary["pass_rate"]
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "sample-wrong-on-purpose" in md and "expected lora, got qlora" in md
    # a later run where the failing case passes shows up as improved
    report["cases"][0]["passed"] = False
    (tmp_path / "old.json").write_text(json.dumps(report), encoding="utf-8")
    diff = ev.compare(tmp_path / "old.json", results)
    assert diff["improved"] == ["sample-faq-zh"] and diff["regressed"] == []


def test_eval_cli_json(capsys):
    assert main(["eval", "--dataset", str(SAMPLE), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["cases"] == 3 and d["by_lang"]["zh"]["pass_rate"] == 1.0
def test_the_dataset_is_large_bilingual_and_covers_every_intent():
    cases = ev.load_cases()
    assert len(cases) >= 200
    zh = sum(c.lang == "zh" for c in cases)
    assert 0.4 <= zh / len(cases) <= 0.6
    intents = {c.expect.intent for c in cases}
    assert {"training_memory", "inference_memory", "training_time", "inference_speed", "cost", "recommend", "compare",
            "spec", "fact_check", "explain", "out_of_scope"} <= intents
    assert any(len(c.turns) > 1 for c in cases) and all(c.derivation.strip() for c in cases)


def test_quality_gate_rules_backend_over_the_full_set():
    cases = ev.load_cases()
    results = ev.run(cases, progress=False)  # (its time is a benchmark figure: `make bench`, not an assertion here)
    summary = ev.summarise(results)
    failed = [f"{r.id}: " + "; ".join(f"{c.name} want {c.expected} got {c.got}" for c in r.checks if not c.ok)
              for r in results if not r.passed]
    assert summary["pass_rate"] >= ev.gate_threshold(), "\n".join(failed)


def test_the_realistic_set_is_large_bilingual_and_apart_from_the_first_set():
    cases = ev.load_cases(ev.REALISTIC)
    assert len(cases) >= 300 and sum(c.lang == "zh" for c in cases) >= len(cases) / 2
    assert not {c.id for c in cases} & {c.id for c in ev.load_cases()}
    assert sum(len(c.turns) > 1 for c in cases) >= 30 and sum(c.expect.status == "needs_clarification" for c in cases) >= 20
    assert {"price", "cost", "serving", "published_run", "training_memory", "inference_memory"} <= {c.expect.intent for c in cases}
    assert all(c.derivation.strip() for c in cases)


def test_quality_gate_realistic_set_in_each_language():
    results = ev.run(ev.load_cases(ev.REALISTIC), progress=False)
    summary = ev.summarise(results)
    threshold = ev.gate_threshold("realistic_min_pass_rate")
    failed = [f"{r.id}: " + "; ".join(f"{c.name} want {c.expected} got {c.got}" for c in r.checks if not c.ok)
              for r in results if not r.passed]
    for lang in ("zh", "en"):
        assert summary["by_lang"][lang]["pass_rate"] >= threshold, (lang, "\n".join(failed))


def test_llm_prose_is_judged_language_refusal_and_tool_call_text():
    from assistant.answer import Answer
    from evals.cases import Case

    case = Case(id="p", lang="zh", turns=["A100够不够微调70B？"], expect={}, derivation="prose checks only")
    english = Answer(answer="理解为：训练显存：70B\n\nYes, QLoRA fits on one A100.", lang="zh", intent="training_memory",
                     backend="openai:x")
    refusal = english.model_copy(update={"answer": "理解为：训练显存：70B\n\n抱歉，我无法回答这个问题。"})
    checks = {c.name: c.ok for c in ev.score(case, english)}
    assert checks["prose language"] is False and checks["prose not a refusal"] is True
    assert {c.name: c.ok for c in ev.score(case, refusal)}["prose not a refusal"] is False
    rules = english.model_copy(update={"backend": "rules"})
    assert "prose language" not in {c.name for c in ev.score(case, rules)}  # the composer's text is not judged as prose
