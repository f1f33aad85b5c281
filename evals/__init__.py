"""Offline evaluation runs and benchmarks."""
