"""`gpu-advisor mcp`: the sizing, planning, lookup and search tools (and `ask`) over the Model Context Protocol.

Each tool is an assistant.toolbox ToolSpec: its pydantic argument model becomes the MCP input schema
and its JSON result the structured output. stdio by default; streamable HTTP with --http.
"""
from __future__ import annotations

import inspect
from typing import Annotated, Any

from pydantic import Field, ValidationError

INSTRUCTIONS = (
    "gpu-advisor computes GPU memory, GPU counts, training time and cost for large language models. Call size_train "
    "or size_infer for memory and fit (decimal GB, dense throughput), time_train and recommend_gpus for planning, "
    "lookup_gpu / compare_gpus for sourced specs, search_knowledge for cited passages, or ask for a full answer. "
    "Quote the numbers the tools return; do not estimate them yourself."
)


def as_function(spec):
    """A plain function whose signature mirrors spec.args, so the SDK publishes the same schema."""
    from mcp.server.mcpserver.exceptions import ToolError

    from knowledge.catalog import UnknownItem
    from ui.errors import validation_message

    params = []
    for name, field in spec.args.model_fields.items():
        annotation = Annotated[(field.annotation, *field.metadata, Field(description=field.description))]
        default = inspect.Parameter.empty if field.is_required() else field.default
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation))

    def tool(**kw) -> dict[str, Any]:
        try:
            return spec.call(**kw)
        except ValidationError as e:
            raise ToolError(f"{spec.name}: {validation_message(e.errors())}") from None
        except (UnknownItem, ValueError) as e:
            raise ToolError(f"{spec.name}: {e}") from None

    tool.__signature__ = inspect.Signature(params, return_annotation=dict[str, Any])
    tool.__name__ = spec.name
    tool.__doc__ = spec.description
    return tool


def build_server(deps=None):
    """An MCPServer with every toolbox tool registered."""
    from mcp.server.mcpserver import MCPServer

    from assistant.service import default_deps
    from assistant.toolbox import tool_specs
    from ui.server import package_version

    deps = deps or default_deps()
    server = MCPServer("gpu-advisor", instructions=INSTRUCTIONS, version=package_version(), log_level="WARNING")
    for spec in tool_specs(deps, include_ask=True):
        server.tool(name=spec.name, description=spec.description, structured_output=True)(as_function(spec))
    return server


def serve(http: bool = False, host: str = "127.0.0.1", port: int = 8765) -> int:
    server = build_server()
    if http:
        import sys

        print(f"gpu-advisor MCP server (streamable HTTP) on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
        server.run("streamable-http", host=host, port=port)
    else:
        server.run("stdio")
    return 0
