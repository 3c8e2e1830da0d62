# The maintainer's interface. Every target sets up what it needs first.
#   make            set up (system libraries, .venv) and build the site at preview quality
#   make test       the whole test suite (models, pipeline, scenes, site, browser)
#   make help       everything else
SHELL := /bin/bash
PY    ?= python3
VENV  := .venv
BIN   := $(VENV)/bin
BUILD := $(BIN)/python -m pipeline build
J     ?=
PORT  ?= 8000
PRESET ?= hd
JOBS  := $(if $(J),-j $(J),)
export NO_MKDOCS_2_WARNING := 1
export PYTHONDONTWRITEBYTECODE := 1

.DEFAULT_GOAL := site
.PHONY: site serve scene frame new release slides presenter test test-fast test-heavy test-reliability bench check clean distclean \
        help sysdeps browser deploy-check lighthouse

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'
	@echo "  options: J=<n> worker processes (default: all cores); S=<id> for make scene, frame, new, slides, release"
	@echo "           (and make serve S=<id>: only that scene); PORT=<n> for make serve (default 8000);"
	@echo "           BEAT=<n> and HD=1 for make frame; M=<module> and TITLE=<text> for make new;"
	@echo "           RELEASE=1 for make bench (the release cold and the kits of KIT=\"<id> ...\");"
	@echo "           KIT=\"<id> ...\" for make deploy-check (only those scenes' kits);"
	@echo "           W06_TASK_TIMEOUT=<s> one time limit for every task (default: max(600 s, 10 x recorded cost); 1800 s before a cost is recorded)"

site: $(VENV)/.ok ## build the whole site into site/ at preview quality, every scenario (site/scenario/<id>/)
	$(BUILD) --preset preview --scenario all $(JOBS)

serve: $(VENV)/.ok ## build, serve on 127.0.0.1:8000 (PORT=), rebuild what each source edit changes, reload
	$(BIN)/python -m pipeline serve --preset preview -a 127.0.0.1:$(PORT) $(JOBS) $(if $(S),--only $(S),)

scene: $(VENV)/.ok ## rebuild one scene and the site: make scene S=ring-vs-tree
	@test -n "$(S)" || { echo "usage: make scene S=<scene id>  (ids: catalogue.yml)"; exit 2; }
	$(BUILD) --preset preview --scenario all --only $(S) $(JOBS)

frame: $(VENV)/.ok ## one beat's last frame as a PNG, no video: make frame S=<id> BEAT=<n> [HD=1]
	@test -n "$(S)" -a -n "$(BEAT)" || { echo "usage: make frame S=<scene id> BEAT=<n> [HD=1]"; exit 2; }
	$(BIN)/python -m pipeline frame $(S) $(BEAT) --preset $(if $(HD),hd,preview)

new: $(VENV)/.ok ## scaffold a scene (catalogue entry, model, test, figure, scene, page): make new S=<id> M=<module>
	@test -n "$(S)" -a -n "$(M)" || { echo "usage: make new S=<scene id> M=<catalogue module> [TITLE=...]"; exit 2; }
	$(BIN)/python -m pipeline new $(S) --module $(M) $(if $(TITLE),--title "$(TITLE)",)

release: $(VENV)/.ok ## build the deployable site at hd (1080p60), every scenario (S=<id>: that scene's hd outputs only)
	$(BUILD) --preset hd --scenario all $(if $(S),--only $(S),) $(JOBS)

deploy-check: $(VENV)/.ok browser ## the deploy workflow's commands here, in order, the release a dry run (PRESET=hd; PRESET=preview KIT=<id> is quick)
	$(BIN)/python -m pipeline.devloop.deploy_check --preset $(PRESET) $(JOBS) $(if $(KIT),--kit $(KIT),)

lighthouse: ## Lighthouse (npm, dev only: LIGHTHOUSE=path/to/.bin/lighthouse) on home + 2 heaviest scenes of site/
	$(BIN)/python tools/lighthouse.py $(if $(LIGHTHOUSE),--lighthouse $(LIGHTHOUSE),)

slides: $(VENV)/.ok ## one scene's presenter kit (deck PPTX+HTML, 1080p60, 4k, overlay): make slides S=<id>
	@test -n "$(S)" || { echo "usage: make slides S=<scene id>  (ids: catalogue.yml)"; exit 2; }
	$(BIN)/python -m pipeline presenter --only $(S) $(JOBS)

presenter: $(VENV)/.ok ## every scene's presenter kit into build/presenter/ (hours of CPU cold; cached after)
	$(BIN)/python -m pipeline presenter $(JOBS)

# the suite runs on TEST_JOBS pytest-xdist workers, one test file at a time each (tests/conftest.py)
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
XDIST = -n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder

test: $(VENV)/.ok browser ## run the whole test suite (all but -m heavy: see test-heavy); TEST_JOBS=n workers
	$(BIN)/python -m pytest $(XDIST) -m "not heavy"

test-fast: $(VENV)/.ok ## all but -m slow and browser: models, catalogue, scene checks (a current render's record, else a dry run), one-scene builds in scratch copies
	$(BIN)/python -m pytest $(XDIST) -m "not slow and not browser and not heavy"

test-heavy: $(VENV)/.ok browser ## the full-size command tests: make slides, release, bench, deploy-check as typed (hours cold)
	$(BIN)/python -m pytest -m heavy

test-reliability: $(VENV)/.ok ## bad inputs, killed and hung workers, damaged manifest, disk full, two builds
	$(BIN)/python -m pytest tests/test_reliability.py

bench: $(VENV)/.ok $(if $(RELEASE),,site) ## after make: no-op, one-scene change, edit-to-reload, frame, each against its goal -> build/bench.json (RELEASE=1: the release cold and the kits)
	$(if $(RELEASE),$(BIN)/python -m pipeline bench-release $(JOBS) $(if $(KIT),--kit $(KIT),),$(BIN)/python -m pipeline bench $(JOBS) $(if $(HD),--hd,))

check: $(VENV)/.ok ## validate catalogue.yml; list what unfinished (scaffolded) scenes still miss
	$(BIN)/python -m pipeline check

clean: ## remove build/ and site/ (keeps .venv)
	rm -rf build site

distclean: clean ## also remove the virtual environment
	rm -rf $(VENV)

# --- set-up -------------------------------------------------------------------
# pycairo and manimpango compile at install on Linux: they need a C compiler,
# Python headers, pkg-config and the Cairo and Pango development files.
SYSDEPS := build-essential python3-dev python3-venv pkg-config libcairo2-dev libpango1.0-dev
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

sysdeps:
	@if ! { pkg-config --exists cairo pangocairo 2>/dev/null && command -v cc >/dev/null \
	        && $(PY) -c 'import sysconfig,os,sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"],"Python.h")))' \
	        && $(PY) -c 'import ensurepip' 2>/dev/null; }; then \
	  echo ">> installing system libraries Manim builds against: $(SYSDEPS)"; \
	  echo ">> (pycairo and manimpango compile against Cairo and Pango; apt-get needs root)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(SYSDEPS); \
	fi

browser: ## install Debian's chromium for the browser tests if missing
	@command -v chromium >/dev/null || { \
	  echo ">> installing chromium (Debian package) for the browser tests"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }

$(VENV)/.ok: requirements.lock pyproject.toml
	@$(MAKE) --no-print-directory sysdeps
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	@touch $@
