"""The assistant: questions in, grounded answers out (planner, LLM agent, answer composition)."""
