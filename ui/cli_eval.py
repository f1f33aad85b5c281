"""CLI command `eval`: run the offline question set (and, with --suite all, the calibration benchmarks)."""
from __future__ import annotations

from ui.argtypes import backend_name, positive_int  # noqa: F401

from pathlib import Path


def add_parsers(sub) -> None:
    e = sub.add_parser("eval", help="offline evaluation: the question set, scored; reports and run comparison")
    e.add_argument("--dataset", help="a YAML file or folder of cases (default evals/datasets); 'realistic' = evals/realistic, "
                                     "the questions as people write them")
    e.add_argument("--backend", default="rules", type=backend_name, help="rules (default), auto, openai:MODEL, ollama:MODEL")
    e.add_argument("--report", help="folder for report.json and report.md")
    e.add_argument("--filter", help="only cases with this tag or intent")
    e.add_argument("--compare", help="an earlier report.json: list what regressed and improved")
    e.add_argument("--suite", choices=["questions", "all"], default="questions",
                   help="all: also the calibration benchmarks (engine vs published measurements)")
    e.add_argument("--workers", type=positive_int, help="parallel cases (default 1: a local model server usually has one slot, "
                                               "and parallel requests would only queue into its time-outs)")
    e.add_argument("--json", action="store_true", help="print the summary object")


def run_command(args, catalog) -> tuple[dict, str]:
    from evals import run as ev

    dataset = ev.REALISTIC if args.dataset == "realistic" else (Path(args.dataset) if args.dataset else None)
    cases = ev.load_cases(dataset, args.filter)
    if not cases:
        raise ValueError("no cases matched (check --dataset and --filter)")
    workers = args.workers or 1
    results = ev.run(cases, backend=args.backend, workers=workers, progress=not args.json)
    summary = ev.summarise(results)
    text = [f"gpu-advisor eval: {len(cases)} cases, backend {summary['backend']}", ev.render_summary(summary)]
    if args.report:
        ev.write_report(results, summary, Path(args.report))
        text.append(f"reports: {Path(args.report) / 'report.json'}, {Path(args.report) / 'report.md'}")
    if args.compare:
        diff = ev.compare(Path(args.compare), results)
        summary["compare"] = diff
        text.append(f"vs {args.compare}: {len(diff['regressed'])} regressed {diff['regressed'][:10]}, "
                    f"{len(diff['improved'])} improved {diff['improved'][:10]}")
    failures = [r for r in results if not r.passed]
    if failures:
        text.append("failures:")
        text += [f"  {r.id}: " + "; ".join(f"{c.name} expected {c.expected} got {c.got}" for c in r.checks if not c.ok)[:220]
                 for r in failures[:30]]
    if args.suite == "all":
        from evals.calibration import run_memory_cases, run_time_cases

        rows = run_memory_cases(catalog) + run_time_cases(catalog)
        ok = sum(r.ok and not r.source_error for r in rows)
        summary["calibration"] = {"cases": len(rows), "within_tolerance": ok,
                                  "source_errors": sum(bool(r.source_error) for r in rows)}
        text.append(f"calibration: {ok}/{len(rows) - summary['calibration']['source_errors']} within tolerance "
                    f"(make bench prints the table and the retrieval benchmark)")
    return summary, "\n".join(text)
