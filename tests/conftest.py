"""Shared fixtures: the real catalog, and no network for any test."""
from __future__ import annotations

import socket

import pytest

from knowledge.catalog import default_catalog


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Tests never reach the network: connecting anywhere but loopback fails loudly."""
    real_connect = socket.socket.connect

    def guarded(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and host not in ("127.0.0.1", "::1", "localhost") and not host.startswith("/"):
            raise RuntimeError(f"test tried to reach the network: {address!r}")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """No test reads the developer's own price overrides or index: HOME and the data directory are fresh."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GPU_ADVISOR_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("GPU_ADVISOR_PRICES", raising=False)
    monkeypatch.delenv("CHROMA_HOST", raising=False)
    for var in ("GPU_ADVISOR_LLM", "OPENAI_BASE_URL", "OPENAI_API_KEY", "OLLAMA_HOST"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="session")
def catalog():
    return default_catalog()


@pytest.fixture(scope="session")
def model(catalog):
    return lambda name: catalog.model(name)[0]


@pytest.fixture(scope="session")
def gpu(catalog):
    return lambda name: catalog.gpu(name)[0]
