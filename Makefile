# Two commands: `make run` (set up and open the app) and `make test` (set up and run every check).
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8501
BIN := $(VENV)/bin
CHROMIUM ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# `make dev`: the app with Streamlit's source watcher on (reloads on save), for development.
.PHONY: run dev serve nginx test test-fast test-slow lint bench chromium clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

# The browser tests' chromium, and a CJK font so that Chinese pages do not show boxes (installed, or only
# registered with fontconfig when the package is there but its cache is stale).
chromium:
	@[ -x "$(CHROMIUM)" ] || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium >/dev/null; }
	@fc-list :lang=zh 2>/dev/null | grep -q . || { { dpkg -s fonts-noto-cjk >/dev/null 2>&1 || \
		{ $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq fonts-noto-cjk >/dev/null; }; } && fc-cache -f >/dev/null; }

run: $(VENV)/.runtime
	$(BIN)/streamlit run app.py --server.port $(PORT)

# `make serve`: WORKERS Streamlit processes (default: one per core) behind nginx on one URL, sessions sticky
# to their process (see README, "Serving a class"). SERVE_HOST=0.0.0.0 opens it to the local network.
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
SERVE_PORT ?= 8501
SERVE_HOST ?= 127.0.0.1

nginx:
	@command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq nginx >/dev/null; }

serve: $(VENV)/.runtime nginx
	$(BIN)/python -m deploy.serve --workers $(WORKERS) --port $(SERVE_PORT) --host $(SERVE_HOST)

dev: $(VENV)/.runtime
	$(BIN)/streamlit run app.py --server.port $(PORT) --server.fileWatcherType auto --server.runOnSave true

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy bleu_core pages app.py

test: $(VENV)/.dev chromium nginx lint
	$(BIN)/pytest

# The quick loop: no slow and no browser tests (-m replaces the default marker expression, so both are named).
test-fast: $(VENV)/.dev
	$(BIN)/pytest -m "not slow and not browser"

test-slow: $(VENV)/.dev chromium nginx
	$(BIN)/pytest -m "slow or properties" --hypothesis-profile=slow

# bench.scale: 1M segments on a 2-process Dask LocalCluster, and the command line's peak memory at 100k, 1M and 4M.
bench: $(VENV)/.dev
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.compare_speed
	$(BIN)/python -m bench.corpus_speed
	$(BIN)/python -m bench.scale
	$(BIN)/python -m bench.reading
	$(BIN)/python -m bench.implementations_speed
	$(BIN)/python -m bench.load --floor-gc

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
