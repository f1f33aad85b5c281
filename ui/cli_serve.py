"""`gpu-advisor serve`: the web chat and HTTP API on one port."""
from __future__ import annotations

import argparse

EPILOG = """\
examples:
  gpu-advisor serve                                 # http://127.0.0.1:7860/ with the rules backend (make run)
  gpu-advisor serve --backend openai                # GPU_ADVISOR_MODEL on OPENAI_BASE_URL (vLLM, llama.cpp, hosted)
  GPU_ADVISOR_TOKEN=s3cret gpu-advisor serve --host 0.0.0.0   # open /?token=s3cret once in the browser
  curl -s localhost:7860/api/ask -H 'content-type: application/json' -d '{"message": "A100够不够微调70B？"}'

Environment: GPU_ADVISOR_TOKEN (access token for the UI and /api/ask), GPU_ADVISOR_RATE_LIMIT (e.g. 60/min,burst=20
or off; per client on /api/ask), REDIS_URL (shared sessions; default SQLite in GPU_ADVISOR_DATA),
GPU_ADVISOR_SESSION_TTL (seconds, default 604800), GPU_ADVISOR_LLM / OPENAI_BASE_URL / OLLAMA_HOST for LLM backends.
"""


def add_parsers(sub) -> None:
    p = sub.add_parser("serve", help="the web chat (Gradio) and the HTTP API on one port",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG,
                       description="Start one FastAPI app: the Gradio UI at /, POST /api/ask, GET /healthz, API docs at /api/docs.")
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=7860, help="TCP port (default 7860)")
    p.add_argument("--backend", default="auto",
                   help="auto (GPU_ADVISOR_LLM if set, else rules), rules, openai, ollama, or openai:MODEL / ollama:MODEL")
    p.add_argument("--rate-limit", help="per-client limit on /api/ask, e.g. 60/min,burst=20, 5/s or off "
                                        "(default GPU_ADVISOR_RATE_LIMIT or 60/min,burst=20)")
    p.add_argument("--concurrency", type=int, default=8, help="chat events processed at once by the Gradio queue (default 8)")
    p.add_argument("--max-message-chars", type=int,
                   help="longer messages are truncated with a notice (default and most: the parser's 4000)")


MCP_EPILOG = """\
examples:
  gpu-advisor mcp                          # stdio: for Claude Desktop, Cursor, VS Code (see README for the config)
  gpu-advisor mcp --http --port 8765       # streamable HTTP at http://127.0.0.1:8765/mcp

Tools: size_train, size_infer, time_train, compare_gpus, lookup_gpu, recommend_gpus, search_knowledge, ask.
"""


def _add_http_flags(p, http_help: str, port: int) -> None:
    p.add_argument("--http", action="store_true", help=http_help)
    p.add_argument("--host", default="127.0.0.1", help="with --http: interface (default 127.0.0.1; put a TLS proxy in front)")
    p.add_argument("--port", type=int, default=port, help=f"with --http: TCP port (default {port})")


def _check_port(port: int) -> None:
    if not 1 <= port <= 65535:
        raise ValueError(f"--port must be 1-65535 (got {port})")


def add_mcp_parser(sub) -> None:
    p = sub.add_parser("mcp", help="the tools over the Model Context Protocol (stdio, or streamable HTTP)",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=MCP_EPILOG,
                       description="Serve gpu-advisor's sizing, planning, lookup and search tools, and ask, to MCP clients.")
    _add_http_flags(p, "streamable HTTP instead of stdio", 8765)


SLACK_EPILOG = """\
examples:
  SLACK_BOT_TOKEN=xoxb-... SLACK_APP_TOKEN=xapp-... gpu-advisor slack                 # Socket Mode
  SLACK_BOT_TOKEN=xoxb-... SLACK_SIGNING_SECRET=... gpu-advisor slack --http --port 3000   # events at /slack/events

SLACK_API_URL overrides the Web API base URL (tests, Slack-compatible servers). The app manifest with the scopes
and events is ui/slack/manifest.yaml. Threads are sessions, shared with the web chat's store (REDIS_URL or SQLite).
"""


def add_slack_parser(sub) -> None:
    p = sub.add_parser("slack", help="the Slack bot (Socket Mode, or HTTP events with --http)",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=SLACK_EPILOG,
                       description="Answer @-mentions (in the thread), direct messages and /gpu QUESTION in Slack.")
    _add_http_flags(p, "receive events over HTTP at /slack/events instead of Socket Mode", 3000)
    p.add_argument("--backend", default="auto", help="auto, rules, openai, ollama (as for serve)")


def run_slack(args) -> int:
    _check_port(args.port)
    from ui.slack.run import serve as serve_slack

    return serve_slack(args.http, args.host, args.port, args.backend)


def run_mcp(args) -> int:
    _check_port(args.port)
    from ui.mcp.server import serve as serve_mcp

    return serve_mcp(http=args.http, host=args.host, port=args.port)


def run_command(args) -> int:
    from pydantic import ValidationError

    from ui.errors import validation_message
    from ui.ratelimit import RateLimit
    from ui.server import ServeSettings, serve

    kw = {"host": args.host, "port": args.port, "backend": args.backend, "concurrency": args.concurrency}
    if args.max_message_chars is not None:
        kw["max_message_chars"] = args.max_message_chars
    if args.rate_limit:
        kw["rate_limit"] = RateLimit.parse(args.rate_limit)
    if args.backend.split(":")[0] not in ("auto", "rules", "openai", "ollama"):
        raise ValueError(f"--backend {args.backend!r}: use auto, rules, openai, ollama, openai:MODEL or ollama:MODEL")
    try:
        settings = ServeSettings(**kw)
    except ValidationError as e:
        raise ValueError(validation_message(e.errors(), as_flags=True)) from None
    return serve(settings)
