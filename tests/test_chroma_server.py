"""Chroma server mode against a real `chroma run` on 127.0.0.1 that this test starts and stops."""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from knowledge.embeddings import HashEmbedder
from knowledge.index import IndexSettings, KnowledgeIndex

CHROMA = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path):
    if not Path(CHROMA).exists():
        pytest.fail("the chroma CLI (installed with chromadb) is missing")
    port = _free_port()
    proc = subprocess.Popen([CHROMA, "run", "--path", str(tmp_path / "srv"), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("chroma run did not answer within 30 s")
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_index_builds_and_searches_on_a_chroma_server(chroma_server, tmp_path, catalog):
    settings = IndexSettings(data_dir=tmp_path / "data", chroma_host="127.0.0.1", chroma_port=chroma_server)
    index = KnowledgeIndex(settings, embedder=HashEmbedder(), catalog=catalog)
    report = index.build()
    assert report.added == report.chunks
    assert "server 127.0.0.1" in index.status().chroma
    again = KnowledgeIndex(settings, embedder=HashEmbedder(), catalog=catalog).build()
    assert again.added == 0   # the server kept what was embedded
    assert index.search("H200 memory", k=3, mode="dense").passages
