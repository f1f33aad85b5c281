"""Run eval cases through the assistant, score every check, summarise, report and compare runs."""
from __future__ import annotations

import json
import re
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml
from pydantic import BaseModel

from evals.cases import Case, Figure

DATASETS = Path(__file__).resolve().parent / "datasets"
REALISTIC = Path(__file__).resolve().parent / "realistic"  # questions as people write them (issue 13)
GATE_FILE = Path(__file__).resolve().parent / "gate.yaml"


class Check(BaseModel):
    name: str
    ok: bool
    expected: str
    got: str
    rel_error: float | None = None


class CaseResult(BaseModel):
    id: str
    lang: str
    intent: str | None
    tags: list[str]
    question: str
    passed: bool
    checks: list[Check]
    latency_ms: float
    backend: str
    guard_interventions: int = 0
    reader: str = "rules"
    llm_warnings: list[str] = []  # what the answer said about the LLM path: readers disagreeing, a fallback, a rejection
    turn_ms: list[float] = []  # each answer's own time (a conversation case asks several times)


def load_cases(path: Path | None = None, tag: str | None = None) -> list[Case]:
    """Every case under `path` (a file or a folder of *.yaml), optionally only those with `tag`."""
    path = path or DATASETS
    if not path.exists():
        raise ValueError(f"--dataset {path}: no such file or folder (a YAML file of cases, a folder of them, or "
                         "'realistic')")
    files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
    cases = []
    for f in files:
        try:
            rows = yaml.safe_load(f.read_text(encoding="utf-8")) or []
            if not isinstance(rows, list):
                raise ValueError("not a list of cases")
            cases += [Case(**row) for row in rows]
        except (yaml.YAMLError, UnicodeDecodeError, ValueError, TypeError) as e:
            raise ValueError(f"--dataset {f}: not a YAML list of eval cases ({str(e).splitlines()[0][:120]})") from None
    ids = [c.id for c in cases]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"duplicate case ids: {', '.join(sorted(dup))}")
    return [c for c in cases if tag is None or tag in c.tags or tag == c.expect.intent]


def _match(expected, got) -> bool:
    if isinstance(expected, list) and len(expected) == 2 and not isinstance(got, bool):
        return got is not None and expected[0] <= got <= expected[1]
    return expected == got


def _figure(name: str, fig: Figure, got) -> Check:
    if not isinstance(got, (int, float)) or isinstance(got, bool):
        return Check(name=f"figure {name}", ok=False, expected=_fig_text(fig), got=str(got))
    if fig.range is not None:
        lo, hi = fig.range
        mid = (lo + hi) / 2
        return Check(name=f"figure {name}", ok=lo <= got <= hi, expected=_fig_text(fig), got=f"{got:g}",
                     rel_error=abs(got / mid - 1) if mid else None)
    err = abs(got / fig.value - 1) if fig.value else abs(got)
    return Check(name=f"figure {name}", ok=err <= fig.tol, expected=_fig_text(fig), got=f"{got:g}", rel_error=err)


def _fig_text(fig: Figure) -> str:
    return f"{fig.range[0]:g}-{fig.range[1]:g}" if fig.range else f"{fig.value:g} ±{fig.tol:.0%}"


def score(case: Case, answer) -> list[Check]:
    """Each expectation of `case` checked against an Answer."""
    e, checks = case.expect, []
    if e.intent:
        checks.append(Check(name="intent", ok=answer.intent == e.intent, expected=e.intent, got=answer.intent))
    verdict = answer.verdict.model_dump() if answer.verdict else {}
    for k, v in e.verdict.items():
        checks.append(Check(name=f"verdict.{k}", ok=_match(v, verdict.get(k)), expected=str(v), got=str(verdict.get(k))))
    by_method = {o.method: o.model_dump() for o in answer.options}
    for method, fields in e.options.items():
        for k, v in fields.items():
            got = by_method.get(method, {}).get(k)
            checks.append(Check(name=f"options.{method}.{k}", ok=_match(v, got), expected=str(v), got=str(got)))
    for name, fig in e.figures.items():
        checks.append(_figure(name, fig, answer.figures.get(name)))
    text = answer.answer.lower()
    for s in e.contains:
        found = s.lower() in text
        checks.append(Check(name=f"contains {s!r}", ok=found, expected="present", got="present" if found else "absent"))
    for s in e.not_contains:
        found = s.lower() in text
        checks.append(Check(name=f"not_contains {s!r}", ok=not found, expected="absent", got="present" if found else "absent"))
    for s in e.warnings_contain:
        hit = any(s.lower() in w.lower() for w in answer.warnings + [answer.answer])
        checks.append(Check(name=f"warning {s!r}", ok=hit, expected="present", got="; ".join(answer.warnings)[:200] or "none"))
    checks += _request_checks(e, answer)
    if e.min_citations:
        n = len([c for c in answer.citations if c.source != "(none)"])
        checks.append(Check(name="citations", ok=n >= e.min_citations, expected=f">= {e.min_citations}", got=str(n)))
    want = e.answer_lang or case.lang
    checks.append(Check(name="language", ok=answer.lang == want, expected=want, got=answer.lang))
    if answer.backend != "rules" and getattr(answer, "reader", "rules") != "llm":  # prose an LLM wrote: judge it too
        checks += _prose_checks(answer.answer.split("\n", 1)[-1], want)
    return checks


_REFUSAL = re.compile(r"\b(?:i can(?:no|')t|i am unable|i'm unable|i'm sorry|as an ai)\b|抱歉|无法回答|不能回答|作为(?:一个)?ai", re.I)


def _prose_checks(prose: str, lang: str) -> list[Check]:
    """What an LLM wrote as the answer: in the user's language, not a refusal, not tool-call text."""
    from knowledge.documents import detect_lang

    got = detect_lang(prose)
    return [Check(name="prose language", ok=got == lang, expected=lang, got=got),
            Check(name="prose not a refusal", ok=not _REFUSAL.search(prose), expected="an answer",
                  got="refusal" if _REFUSAL.search(prose) else "an answer"),
            Check(name="prose not tool-call text", ok='"arguments"' not in prose and "<tool" not in prose,
                  expected="prose", got="tool-call text" if '"arguments"' in prose else "prose")]


def _numeric(v):
    """YAML 1.1 reads '1.0e9' (no sign in the exponent) as a string: a number written that way is a number."""
    def num(x):
        try:
            return float(x) if isinstance(x, str) and re.fullmatch(r"[-+]?\d+(?:\.\d*)?[eE][-+]?\d+", x) else x
        except ValueError:
            return x
    return [num(x) for x in v] if isinstance(v, list) else num(v)


def _request_checks(e, answer) -> list[Check]:
    """Status, the understood Request, the clarifying question, the ignored list and the restatement line."""
    checks: list[Check] = []
    status = getattr(answer, "status", "answered")
    if e.status:
        checks.append(Check(name="status", ok=status == e.status, expected=e.status, got=str(status)))
    request = getattr(answer, "request", None) or {}
    for k, v in e.request.items():
        got = request.get(k)
        v = _numeric(v)
        if isinstance(v, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
            ok = abs(got - v) <= 0.01 * abs(v)
        elif isinstance(v, list) and len(v) == 2 and all(isinstance(x, float) for x in v):
            ok = isinstance(got, (int, float)) and v[0] <= got <= v[1]
        elif isinstance(v, list) and v and all(isinstance(x, str) for x in v):
            ok = isinstance(got, list) and all(x in got for x in v)
        else:
            ok = _match(v, got)
        checks.append(Check(name=f"request.{k}", ok=ok, expected=str(v), got=str(got)))
    clar = getattr(answer, "clarification", None)
    missing = clar.missing if clar else []
    for field in e.missing:
        checks.append(Check(name=f"missing {field}", ok=field in missing, expected="asked", got=", ".join(missing) or "none"))
    ignored = " | ".join(getattr(answer, "ignored", []) or []).lower()
    for s in e.ignored_contains:
        checks.append(Check(name=f"ignored {s!r}", ok=s.lower() in ignored, expected="named", got=ignored[:200] or "none"))
    first = answer.answer.strip().split("\n", 1)[0].lower()
    for s in e.first_line_contains:
        checks.append(Check(name=f"first line {s!r}", ok=s.lower() in first, expected="present", got=first[:200]))
    return checks


def run_case(case: Case, backend: str = "rules") -> CaseResult:
    """One case through `ask` (multi-turn cases as one conversation), scored."""
    from assistant.service import ask

    history: list[dict] = []
    t0 = time.perf_counter()
    answer = None
    turn_ms = []
    for turn in case.turns:
        t1 = time.perf_counter()
        answer = ask(turn, history=history, backend=backend)
        turn_ms.append(round((time.perf_counter() - t1) * 1000, 2))
        history.append(answer.slots)
    ms = (time.perf_counter() - t0) * 1000
    checks = score(case, answer)
    guard = sum("LLM answer rejected" in w for w in answer.warnings)
    return CaseResult(id=case.id, lang=case.lang, intent=case.expect.intent, tags=case.tags, question=case.turns[-1][:300],
                      passed=all(c.ok for c in checks), checks=checks, latency_ms=round(ms, 2), backend=answer.backend,
                      guard_interventions=guard, reader=getattr(answer, "reader", "rules"),
                      llm_warnings=[w for w in answer.warnings if "LLM" in w], turn_ms=turn_ms)


def run(cases: list[Case], backend: str = "rules", workers: int = 1, progress: bool = True) -> list[CaseResult]:
    """All cases, in parallel threads for LLM backends, with a progress line on stderr."""
    from assistant.service import ask

    ask("A100够不够微调70B？", backend="rules")  # warm up the catalog, jieba and BM25 so latencies are per answer
    results: list[CaseResult] = []

    def tick(r: CaseResult):
        results.append(r)
        if progress:
            done = len(results)
            bar = "#" * int(30 * done / len(cases))
            print(f"\r  eval [{bar:<30}] {done}/{len(cases)}", end="" if done < len(cases) else "\n", file=sys.stderr)

    if workers <= 1:
        for c in cases:
            tick(run_case(c, backend))
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for r in pool.map(lambda c: run_case(c, backend), cases):
                tick(r)
    order = {c.id: i for i, c in enumerate(cases)}
    return sorted(results, key=lambda r: order[r.id])


def _group(results: list[CaseResult]) -> dict:
    lat = sorted(r.latency_ms for r in results)
    errs = [c.rel_error for r in results for c in r.checks if c.rel_error is not None]
    return {"cases": len(results), "passed": sum(r.passed for r in results),
            "pass_rate": round(sum(r.passed for r in results) / len(results), 4) if results else None,
            "median_figure_error": round(statistics.median(errs), 4) if errs else None,
            "latency_ms_p50": round(statistics.median(lat), 2) if lat else None,
            "latency_ms_p95": round(lat[min(len(lat) - 1, int(0.95 * len(lat)))], 2) if lat else None}


def summarise(results: list[CaseResult]) -> dict:
    """Overall, per-intent and per-language figures."""
    out = _group(results)
    out["by_intent"] = {k: _group([r for r in results if (r.intent or "none") == k])
                        for k in sorted({r.intent or "none" for r in results})}
    out["by_lang"] = {k: _group([r for r in results if r.lang == k]) for k in sorted({r.lang for r in results})}
    out["guard_interventions"] = sum(r.guard_interventions for r in results)
    out["llm_reader_used"] = sum(r.reader == "llm" for r in results)
    out["backend"] = results[0].backend if results else None
    return out


def render_summary(summary: dict) -> str:
    rows = [("all", summary)] + [(f"intent {k}", v) for k, v in summary["by_intent"].items()] + \
           [(f"lang {k}", v) for k, v in summary["by_lang"].items()]
    lines = [f"{'':<28} {'cases':>5} {'passed':>6} {'rate':>6} {'fig err':>8} {'p50 ms':>7} {'p95 ms':>7}"]
    for name, g in rows:
        err = "-" if g["median_figure_error"] is None else f"{g['median_figure_error']:.1%}"
        lines.append(f"{name:<28} {g['cases']:>5} {g['passed']:>6} {g['pass_rate']:>6.1%} {err:>8} "
                     f"{g['latency_ms_p50']:>7.1f} {g['latency_ms_p95']:>7.1f}")
    if summary.get("guard_interventions"):
        lines.append(f"grounding guard rejected {summary['guard_interventions']} LLM answers")
    if summary.get("llm_reader_used"):
        lines.append(f"answered from the LLM reader's Request in {summary['llm_reader_used']} of {summary['cases']} cases "
                     "(the rest fell back to the rules reader)")
    return "\n".join(lines)


def write_report(results: list[CaseResult], summary: dict, directory: Path) -> None:
    """report.json (summary + every case) and report.md (summary table + failures)."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "report.json").write_text(json.dumps({"summary": summary, "cases": [r.model_dump() for r in results]},
                                                      ensure_ascii=False, indent=1), encoding="utf-8")
    md = ["# gpu-advisor eval report", "", "```", render_summary(summary), "```", "", "## Failures", ""]
    for r in results:
        if r.passed:
            continue
        md.append(f"### {r.id} ({r.lang}, {r.intent})\n\n> {r.question}\n")
        md += [f"- {c.name}: expected {c.expected}, got {c.got}" for c in r.checks if not c.ok]
        md.append("")
    (directory / "report.md").write_text("\n".join(md), encoding="utf-8")


def compare(old_report: Path, results: list[CaseResult]) -> dict:
    """Cases that regressed (passed before, fail now) and improved, against an earlier report.json."""
    try:
        old = {c["id"]: c["passed"] for c in json.loads(old_report.read_text(encoding="utf-8"))["cases"]}
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
        raise ValueError(f"--compare {old_report}: not a report.json written by `gpu-advisor eval --report DIR` "
                         f"({type(e).__name__})") from None
    now = {r.id: r.passed for r in results}
    return {"regressed": sorted(i for i in now if old.get(i) is True and not now[i]),
            "improved": sorted(i for i in now if old.get(i) is False and now[i]),
            "new": sorted(i for i in now if i not in old), "removed": sorted(i for i in old if i not in now)}


def gate_threshold(key: str = "min_pass_rate") -> float:
    """A pass rate the CI gate requires (evals/gate.yaml): min_pass_rate for evals/datasets,
    realistic_min_pass_rate for evals/realistic (in each language)."""
    return float(yaml.safe_load(GATE_FILE.read_text(encoding="utf-8"))[key])
