"""The MCP server, driven by the official SDK's client: in process, over stdio and over streamable HTTP."""
from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from ui.mcp.server import build_server

ROOT = Path(__file__).resolve().parent.parent
TOOLS = {"size_train", "size_infer", "time_train", "time_infer", "gpu_prices", "estimate_cost", "compare_gpus", "lookup_gpu",
         "recommend_gpus", "search_knowledge", "ask", "plan_serve"}
QLORA_70B = {"model": "llama-3.1-70b", "method": "qlora", "gpu": "a100-80gb"}


def run(coro):
    return asyncio.run(coro)


async def _list_and_call(target):
    async with Client(target, read_timeout_seconds=60) as client:
        tools = (await client.list_tools()).tools
        result = await client.call_tool("size_train", QLORA_70B)
        return tools, result


def _check_qlora_70b(result, model, gpu):
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    assert not result.is_error
    data = result.structured_content
    direct = estimate_training_memory(TrainingMemoryRequest(model=model("llama-3.1-70b"), gpu=gpu("a100-80gb"),
                                                            method="qlora"))
    assert data["per_gpu_gb"] == pytest.approx(direct.per_gpu_gb)   # the same calculator, not a copy
    assert data["fits"] is True and 40 <= data["per_gpu_gb"] <= 50 and data["min_gpus"] == 1
    assert set(data["breakdown_gb"]) >= {"weights", "lora_adapter", "activations"}


def test_in_process_lists_tools_with_pydantic_schemas_and_sizes_70b_qlora(model, gpu):
    tools, result = run(_list_and_call(build_server()))
    assert {t.name for t in tools} == TOOLS
    schema = next(t for t in tools if t.name == "size_train").input_schema
    assert schema["required"] == ["model"]
    assert schema["properties"]["method"]["enum"] == ["full", "lora", "qlora"]
    assert schema["properties"]["num_gpus"]["minimum"] == 1
    _check_qlora_70b(result, model, gpu)


def test_bad_arguments_come_back_as_tool_errors_that_teach():
    async def go():
        async with Client(build_server()) as client:
            unknown = await client.call_tool("size_train", {"model": "llama-9000b", "method": "qlora"})
            zero = await client.call_tool("size_train", {"model": "7b", "num_gpus": 0})
            return unknown, zero

    unknown, zero = run(go())
    assert unknown.is_error and "unknown model 'llama-9000b'" in unknown.content[0].text
    assert "gpu-advisor models" in unknown.content[0].text
    assert zero.is_error and "greater than or equal to 1" in zero.content[0].text


def test_ask_tool_returns_the_answer_object():
    async def go():
        async with Client(build_server()) as client:
            return await client.call_tool("ask", {"question": "A100够不够微调70B？"})

    data = run(go()).structured_content
    assert data["lang"] == "zh" and data["verdict"]["method"] == "qlora" and data["verdict"]["fits"] is True


def _env():
    return os.environ | {"HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}


def test_over_stdio_as_agent_hosts_run_it(model, gpu):
    params = StdioServerParameters(command=sys.executable, args=["-m", "ui.cli", "mcp"], env=_env(), cwd=str(ROOT))
    tools, result = run(_list_and_call(params))
    assert {t.name for t in tools} == TOOLS
    _check_qlora_70b(result, model, gpu)


def test_over_streamable_http(model, gpu, port_waiter):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "mcp", "--http", "--port", str(port)], env=_env(),
                            cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        port_waiter(port, proc, 60, "the MCP HTTP server")
        tools, result = run(_list_and_call(f"http://127.0.0.1:{port}/mcp"))
        assert {t.name for t in tools} == TOOLS
        _check_qlora_70b(result, model, gpu)
    finally:
        proc.terminate()
        proc.wait(15)
