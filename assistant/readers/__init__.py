"""Readers: question (+ history) -> Request. rules (default) and, later, llm."""
