"""Sourced facts: GPU, model and price tables, reference documents, the retrieval index."""
