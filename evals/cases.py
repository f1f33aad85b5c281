"""Eval cases: a question (or conversation) and what a correct Answer must contain."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Figure(BaseModel):
    """A named figure of the Answer: value with a relative tolerance, or a [low, high] range."""

    model_config = ConfigDict(extra="forbid")
    value: float | None = None
    tol: float = Field(0.1, ge=0, description="relative tolerance around value")
    range: tuple[float, float] | None = None


class Expect(BaseModel):
    model_config = ConfigDict(extra="forbid")
    intent: str | None = None
    verdict: dict[str, bool | int | str | list[int] | None] = Field(
        default_factory=dict, description="fields of Answer.verdict; a [low, high] list is a range (min_gpus)")
    options: dict[str, dict[str, bool | int | str | list[int] | None]] = Field(
        default_factory=dict, description="by method: fields of the option with that method")
    figures: dict[str, Figure] = {}
    contains: list[str] = Field(default_factory=list, description="strings the answer must contain (case-insensitive)")
    not_contains: list[str] = []
    min_citations: int = 0
    warnings_contain: list[str] = []
    answer_lang: Literal["zh", "en"] | None = Field(None, description="default: the case's lang")
    status: Literal["answered", "needs_clarification", "error"] | None = None
    request: dict[str, bool | int | float | str | list[float] | list[str] | None] = Field(
        default_factory=dict, description="fields of Answer.request; a [low, high] list of numbers is a range")
    missing: list[str] = Field(default_factory=list, description="fields a clarifying question must ask for")
    ignored_contains: list[str] = Field(default_factory=list, description="strings Answer.ignored must mention")
    first_line_contains: list[str] = Field(default_factory=list,
                                           description="strings the answer's first line (the restatement) must contain")


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    lang: Literal["zh", "en"]
    tags: list[str] = []
    turns: list[str] = Field(min_length=1)
    expect: Expect
    derivation: str = Field(description="how the expected values were derived by hand, or their published source")
