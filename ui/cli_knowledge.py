"""CLI commands over the knowledge base: index build|add|status, search, compare, prices."""
from __future__ import annotations

from ui.argtypes import backend_name, positive_int  # noqa: F401

import argparse
import sys


def add_parsers(sub) -> None:
    """Register the knowledge commands on the top-level subparsers."""
    ix = sub.add_parser("index", help="build, extend or inspect the retrieval index",
                        description="The hybrid index (Chroma + MiniLM embeddings, BM25 with jieba) over the project's "
                                    "documents and tables. Data directory: GPU_ADVISOR_DATA or ~/.local/share/gpu-advisor; "
                                    "CHROMA_HOST/CHROMA_PORT use a Chroma server instead.")
    ix_sub = ix.add_subparsers(dest="index_cmd", required=True)
    b = ix_sub.add_parser("build", help="embed new or changed chunks (incremental)")
    b.add_argument("--json", action="store_true")
    a = ix_sub.add_parser("add", help="ingest a UTF-8 text or Markdown file (copied into the data directory)")
    a.add_argument("path")
    a.add_argument("--json", action="store_true")
    s = ix_sub.add_parser("status", help="what is indexed and whether it is up to date")
    s.add_argument("--json", action="store_true")

    q = sub.add_parser("search", help="search the knowledge base (Chinese or English)")
    q.add_argument("query")
    q.add_argument("--k", type=positive_int, default=5, help="passages to return (default 5)")
    q.add_argument("--mode", choices=["hybrid", "dense", "bm25"], default="hybrid")
    q.add_argument("--json", action="store_true")

    c = sub.add_parser("compare", help="GPUs side by side (dense figures, with sources)")
    c.add_argument("gpus", nargs="+")
    c.add_argument("--fields", help="comma-separated fields (default: memory, bandwidth, dense TFLOPS, interconnect, TDP)")
    c.add_argument("--json", action="store_true")

    p = sub.add_parser("prices", help="price estimates in force (shipped table + your overrides)")
    p.add_argument("--gpu", help="only this GPU")
    p.add_argument("--json", action="store_true")


def _progress(done: int, total: int) -> None:
    width = 30
    filled = int(width * done / max(total, 1))
    print(f"\r  embedding [{'#' * filled}{'.' * (width - filled)}] {done}/{total} chunks", end="", file=sys.stderr)
    if done >= total:
        print(file=sys.stderr)


def run_command(args: argparse.Namespace, catalog) -> tuple[object, str]:
    """(JSON-able data, text) for one knowledge command."""
    if args.command == "compare":
        return _compare(args, catalog)
    if args.command == "prices":
        return _prices(args, catalog)
    from knowledge.index import KnowledgeIndex

    index = KnowledgeIndex(catalog=catalog)
    if args.command == "search":
        res = index.search(args.query, k=args.k, mode=args.mode)
        data = [p.model_dump() for p in res.passages]
        lines = [f"query: {res.query}" + (f"  (expanded: {res.expanded_query})" if res.expanded_query != res.query else "")]
        lines += [f"warning: {w}" for w in res.warnings]
        for n, p in enumerate(res.passages, 1):
            where = f"{p.source}" + (f" / {p.section}" if p.section else "")
            lines.append(f"\n[{n}] {p.title} ({where}; as of {p.as_of or 'n/a'}; score {p.score:.4f})"
                         + ("  [external, untrusted]" if p.untrusted else ""))
            lines.append("    " + p.text[:400].replace("\n", "\n    ") + ("..." if len(p.text) > 400 else ""))
        return data, "\n".join(lines)
    if args.index_cmd == "build":
        rep = index.build(progress=_progress)
        return rep.model_dump(), (f"index: {rep.chunks} chunks ({rep.added} stored, of which {rep.embedded} embedded now "
                                  f"and {rep.added - rep.embedded} from the shipped cache; {rep.unchanged} unchanged, "
                                  f"{rep.removed} removed) in {rep.seconds:.1f} s -> {index.settings.data_dir}")
    if args.index_cmd == "add":
        from pathlib import Path

        chunks, rep = index.add(Path(args.path))
        flagged = sum(c.flagged_instructions for c in chunks)
        text = f"added {args.path}: {len(chunks)} chunks, indexed in {rep.seconds:.1f} s"
        if flagged:
            text += (f"\nnote: {flagged} chunk(s) contain text addressed to an AI (e.g. 'ignore previous instructions'); "
                     "they are kept as quoted data and never followed")
        return {"chunks": len(chunks), "flagged_instructions": flagged, **rep.model_dump()}, text
    st = index.status()
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(st.chunks_by_kind.items()))
    text = (f"data directory: {st.data_dir}\nchroma: {st.chroma}\nembedder: {st.embedder}\nchunks: {kinds}\n"
            f"indexed: {st.indexed} ({'up to date' if st.up_to_date else 'stale: run gpu-advisor index build'})"
            + (f"\nexternal: {', '.join(st.external_sources)}" if st.external_sources else ""))
    return st.model_dump(), text


def _compare(args, catalog):
    from knowledge.lookups import CompareGpusInput, compare_gpus

    fields = [f.strip() for f in args.fields.split(",")] if args.fields else None
    res = compare_gpus(CompareGpusInput(gpus=args.gpus, fields=fields), catalog)
    ids = [g.id for g in res.gpus]
    width = max(12, *(len(i) for i in ids))
    lines = [f"{'':<24}" + "".join(f"{i:>{width + 2}}" for i in ids)]
    for row in res.rows:
        cells = "".join(f"{'-' if v is None else (f'{v:g}' if isinstance(v, float) else str(v))[:width]:>{width + 2}}"
                        for v in row.values.values())
        lines.append(f"{row.field:<24}{cells}")
    lines.append("\nThroughput figures are dense; '-' = the chip has no such figure.")
    lines += [f"{g.id}: {g.source} (as of {g.as_of}{', secondary source' if g.source_kind == 'secondary' else ''})"
              for g in res.gpus]
    lines += res.notes
    return [g.model_dump(mode="json") for g in res.gpus], "\n".join(lines)


def _prices(args, catalog):
    from knowledge.prices import load_prices

    table = load_prices(gpu_ids={g.id for g in catalog.gpus})
    records = table.records
    if args.gpu:
        gpu, _ = catalog.gpu(args.gpu)
        records = [p for p in records if p.gpu == gpu.id]
    unit = {"per_gpu_hour": "/GPU-h", "per_gpu": "/GPU", "per_8gpu_server": "/8-GPU server"}
    lines = [f"{p.gpu:<14} {p.kind:<15} {p.low:>10,.2f}-{p.high:<10,.2f} {p.currency}{unit[p.unit]:<14} "
             f"{(p.provider or '')[:28]:<28} {p.confidence:<6} as of {p.as_of}" for p in records]
    head = (f"Prices are estimates (ranges). Overrides: {table.user_file} ({len(table.overridden)} records)"
            if table.user_file else "Prices are estimates (ranges). Override them in ~/.config/gpu-advisor/prices.yaml "
                                    "or the file named by GPU_ADVISOR_PRICES.")
    data = {"user_file": table.user_file, "overridden": table.overridden,
            "prices": [p.model_dump(mode="json") for p in records]}
    return data, "\n".join([head, *lines])
