"""Serving capacity: users or requests/s, latency targets and an engine -> layout, replicas, launch line, $/1M tokens.

The public face of the serving planner; each concern lives in its own module:
- tools/serve_request.py      the question (ServeRequest) and the result models (LoadPoint, Layout, ServePlan)
- tools/serve_load.py         one replica's memory and speed, and its steady state at a load
- tools/serve_layout.py       the layout search (TP, PP, replicas) and the same load on other cards
- tools/serve_launch.py       the engine's launch line
- tools/serve_cost.py         price per GPU-hour and $/1M tokens
- tools/serve_assumptions.py  what a plan states it assumed
"""
from __future__ import annotations

from tools.serve_launch import launch_command
from tools.serve_layout import plan_serving, serving_options
from tools.serve_load import Replica, load_point
from tools.serve_request import (DEFAULT_ITL_MS, DEFAULT_OUTPUT, DEFAULT_PROMPT, DEFAULT_TTFT_S, Layout, LoadPoint,
                                 ServeOption, ServePlan, ServeRequest, ServeTargetError)

__all__ = ["DEFAULT_ITL_MS", "DEFAULT_OUTPUT", "DEFAULT_PROMPT", "DEFAULT_TTFT_S", "Layout", "LoadPoint", "Replica",
           "ServeOption", "ServePlan", "ServeRequest", "ServeTargetError", "launch_command", "load_point",
           "plan_serving", "serving_options"]
