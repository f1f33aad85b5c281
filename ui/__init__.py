"""Surfaces that translate between people and the assistant: CLI, web, Slack, MCP."""
