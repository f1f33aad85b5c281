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


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory):
    """One cache folder for the whole run: the MiniLM ONNX export is made once, not per test."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch, model_cache):
    """No test reads the developer's own price overrides or index: HOME and the data directory are fresh."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GPU_ADVISOR_CACHE", str(model_cache))
    monkeypatch.setenv("GPU_ADVISOR_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("GPU_ADVISOR_PRICES", raising=False)
    monkeypatch.setenv("GPU_ADVISOR_CALIBRATION", str(tmp_path / "calibration.json"))  # never the developer's own
    monkeypatch.delenv("GPU_ADVISOR_MODELS", raising=False)
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


@pytest.fixture
def live_server():
    """Start an ASGI app with uvicorn on a free 127.0.0.1 port in a thread; yields a function app -> base URL."""
    import threading
    import time

    import uvicorn

    servers = []

    def start(app) -> str:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("uvicorn did not start within 30 s")
            time.sleep(0.02)
        servers.append((server, thread, sock))
        return f"http://127.0.0.1:{port}"

    yield start
    for server, thread, sock in servers:
        server.should_exit = True
        thread.join(10)
        sock.close()


def wait_for_port(port: int, proc, timeout_s: float, what: str) -> None:
    """Until something accepts connections on 127.0.0.1:port; fails the test if `proc` exits or time runs out."""
    import time

    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                err = proc.stderr.read().decode(errors="replace")[-1500:] if proc.stderr else ""
                pytest.fail(f"{what} did not start on 127.0.0.1:{port} {err}")
            time.sleep(0.05)


@pytest.fixture
def port_waiter():
    return wait_for_port


def _find_redis_server():
    import os
    import shutil

    return os.environ.get("GPU_ADVISOR_REDIS_SERVER") or shutil.which("redis-server") or next(
        (p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if os.path.exists(p)), None)


@pytest.fixture
def redis_exe():
    """The redis-server binary; skips where none is installed, except under CI=true, where that is a failure."""
    import os

    exe = _find_redis_server()
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but redis-server is not installed (.ci/run installs Debian's redis-server)")
        pytest.skip("redis-server not installed (apt-get install redis-server); the Redis session store is untested here")
    return exe


@pytest.fixture
def redis_url(tmp_path):
    """A real redis-server on a free loopback port, started for the test (Debian's package, installed by .ci/run).
    Skips with the reason where none is installed, except under CI=true, where that is a failure."""
    import os
    import subprocess

    exe = _find_redis_server()
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but redis-server is not installed (.ci/run installs Debian's redis-server)")
        pytest.skip("redis-server not installed (apt-get install redis-server); the Redis session store is untested here")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port, proc, 10, "redis-server")
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(10)
