"""The Answer object: the contract every surface (CLI, web, Slack, evals) renders or checks."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from assistant.request import Clarification, Intent  # noqa: F401  (Intent is re-exported)


class Verdict(BaseModel):
    """The main configuration an answer is about."""

    fits: bool | None = None
    gpu: str | None = None
    num_gpus: int | None = None
    min_gpus: int | None = None
    method: str | None = None
    per_gpu_gb: float | None = None


class Citation(BaseModel):
    source: str
    title: str
    snippet: str
    as_of: str | None = None
    trust: Literal["project", "user"] = Field("project", description="project: the shipped, sourced notes and tables; "
                                              "user: a document someone added with `index add` (unverified)")
    flagged: bool = Field(False, description="the passage contains text addressed to an AI: withheld, never quoted")


class ToolCall(BaseModel):
    name: str
    args: dict[str, Any]
    result: dict[str, Any]


class AskAnswer(BaseModel):
    """One ask of a message that holds several, answered: its intent, verdict and figures."""

    ask: str = Field(description="the ask as written, or the alternative it computes")
    intent: Intent
    status: Literal["answered", "needs_clarification", "error"] = "answered"
    verdict: Verdict | None = None
    figures: dict[str, float | int | str | None] = {}
    request: dict[str, Any] | None = Field(None, description="the Request this ask was computed from")


class NotAnswered(BaseModel):
    ask: str
    why: str


class Answer(BaseModel):
    """What the assistant says, and every number's origin."""

    answer: str = Field(description="Markdown in the question's language")
    lang: Literal["zh", "en"]
    intent: Intent
    verdict: Verdict | None = None
    options: list[Verdict] = []
    figures: dict[str, float | int | str | None] = {}
    citations: list[Citation] = []
    tool_calls: list[ToolCall] = []
    backend: str = "rules"
    reader: Literal["rules", "llm"] = Field("rules", description="which reader's Request the answer was planned from")
    warnings: list[str] = []
    status: Literal["answered", "needs_clarification", "error"] = "answered"
    request: dict[str, Any] | None = Field(None, description="the understood Request (assistant/request.py), as a dict")
    clarification: Clarification | None = Field(None, description="the question back when status is needs_clarification")
    ignored: list[str] = Field(default_factory=list, description="stated inputs the answering tool could not use, named")
    slots: dict[str, Any] = Field(default_factory=dict, description="the same Request dict; what follow-ups inherit")
    asks: list[AskAnswer] = Field(default_factory=list, description="a message with several asks: one entry per ask, "
                                  "in the order asked (the top-level fields are the first ask's); empty for one ask")
    not_answered: list[NotAnswered] = Field(default_factory=list, description="asks of the message left unanswered, "
                                            "each with the reason")
    comparison: str | None = Field(None, description="alternatives asked about: which wins and by how much")
