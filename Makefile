# puzzlekit: two commands do all the set-up on a fresh machine.
#   make lab   - creates .venv, installs the kit, opens JupyterLab on the course
#                (make notebook: Notebook 7's one-column pages, for a phone)
#   make test  - creates .venv if needed, runs the whole suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: lab notebook test check bench venv clean exchange docs lite

# JupyterLab as the course wants it for everyone who uses this environment: no pop-up
# asking about Jupyter news over the first test output, no update check (overrides.json
# sets the defaults; a user may still change them in Settings)
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "puzzlekit needs Python >= 3.11"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[course,test,docs]"
	touch $(STAMP)

$(LAB_OVERRIDES): $(STAMP)
	mkdir -p $(dir $@)
	printf '%s\n' '{"@jupyterlab/apputils-extension:notification":' \
		'  {"fetchNews": "false", "checkForUpdates": false}}' > $@

venv: $(STAMP) $(LAB_OVERRIDES)

# root (containers, CI machines) needs --allow-root; everyone else gets the plain command
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

# knobs: make lab PORT=8899 IP=0.0.0.0 BROWSER=0 (BROWSER=0: no browser, e.g. on a server)
PORT    ?= 8888
IP      ?= localhost
BROWSER ?= 1
NO_BROWSER := $(if $(filter 0 no false,$(BROWSER)),--no-browser,)

# from the course root, so that nbgrader finds its config; the venv's bin/ first on PATH,
# so that the formgrader finds nbgrader's own programs (alembic) whatever the caller's PATH
# On a phone or a narrow window (390 px) JupyterLab leaves the notebook a sliver; the same
# server also serves Notebook 7's one-column pages (/tree), which fit: `make lab` says
# where, and `make notebook` opens them (the same knobs).
lab: $(STAMP) $(LAB_OVERRIDES)
	@echo "Opening JupyterLab on the course: http://$(IP):$(PORT)/lab (the URL with its token follows)"
	@echo "On a phone or a narrow window, the same server's one-column pages fit better:"
	@echo "  http://$(IP):$(PORT)/tree (Notebook 7; or run make notebook)"
	cd notebooks && PATH="$(CURDIR)/$(VENV)/bin:$$PATH" ../$(VENV)/bin/jupyter lab \
		--ServerApp.ip=$(IP) --ServerApp.port=$(PORT) $(NO_BROWSER) $(ALLOW_ROOT)

notebook: $(STAMP) $(LAB_OVERRIDES)
	@echo "Opening Notebook 7 on the course: http://$(IP):$(PORT)/tree (the URL with its token follows)"
	cd notebooks && PATH="$(CURDIR)/$(VENV)/bin:$$PATH" ../$(VENV)/bin/jupyter notebook \
		--ServerApp.ip=$(IP) --ServerApp.port=$(PORT) $(NO_BROWSER) $(ALLOW_ROOT)

# nbgrader's exchange (Release, Fetch, Submit, Collect), once per machine and course, as
# root: mode 1777 = everyone may add files, nobody may remove another's; and in it the
# course's folders (COURSE_ID=, default puzzlekit), owned by its instructor (INSTRUCTOR=,
# default the user who ran sudo), before a student can make them. The course's
# nbgrader_config.py reads its place from PUZZLEKIT_EXCHANGE (default /srv/nbgrader/exchange).
EXCHANGE := $(or $(PUZZLEKIT_EXCHANGE),/srv/nbgrader/exchange)
INSTRUCTOR ?= $(or $(SUDO_USER),$(shell id -un))
exchange:
	$(HUB_PYTHON) deploy/hub/classroom.py exchange --exchange $(EXCHANGE) \
		--course-id $(COURSE_ID) --instructor $(INSTRUCTOR)

# the suite runs on every core (pytest-xdist): the tests that share a costly fixture stay
# in one worker, the longest start first (tests/conftest.py). TEST_WORKERS=0: one process.
TEST_WORKERS ?= auto
XDIST := $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder)
test: $(STAMP) $(LAB_OVERRIDES)
	$(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

# the quick loop for everyday work (about a minute on 2 cores): types, the wings' order, and
# the unit tests of the puzzle, the engine, the visuals, grading and the course's plain
# functions; nothing that starts nbgrader, a browser, a kernel behind the wall or a hub.
# `make test` stays the whole suite (the README's command, and CI's).
CHECK_TESTS := tests/test_layers.py tests/test_registry.py tests/test_old_paths.py \
	tests/test_types.py tests/test_smoke.py tests/puzzle tests/engine tests/testcells \
	tests/visuals/test_display.py tests/visuals/test_animation.py \
	tests/visuals/test_widgets.py tests/visuals/test_pattern_board.py \
	tests/visuals/test_search_view.py \
	tests/course/test_workers_jobs.py tests/course/test_integrity.py \
	tests/course/test_interrupts.py tests/course/test_promises.py tests/autograder/test_sanitize.py \
	tests/autograder/test_protocol.py tests/autograder/test_notebook_globals.py \
	tests/test_private_names.py tests/course/test_lms_uploads.py tests/course/test_demo_links.py
check: $(STAMP)
	$(PY) -m pytest $(XDIST) -m "not slow and not browser and not nbgrader" \
		--durations=5 $(CHECK_TESTS) $(PYTEST_ARGS)

# the guide as a site, in build/docs/html (start at index.html); a warning is an error
docs: $(STAMP)
	$(PY) -m sphinx -W --keep-going -q -b html docs build/docs/html
	@echo "the guide: build/docs/html/index.html"

# the course in any browser, nothing installed: a JupyterLite site of the student notebooks
# and the demos in build/lite (docs/how-to/browser.md); from PyPI and npm, kept in
# ~/.cache/puzzlekit-lite (LITE_CACHE=...), so a second build is offline and quick
LITE_CACHE ?= $(HOME)/.cache/puzzlekit-lite
lite: $(STAMP)
	$(PY) deploy/lite/build.py --out build/lite --cache $(LITE_CACHE)

bench: $(STAMP)
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info

# ---- the class server: JupyterHub on this machine (docs/how-to/class-server.md). As
# root: `make hub` builds the class environment, makes the roster's
# users, the exchange and the instructor's course, and starts the hub in the foreground.
# `make hub-course ROSTER=... COURSE_ID=...` adds another course to the hub (set-up
# only: the hub takes it in at its next start).
# knobs: ROSTER=... COURSE_ID=... COURSE_SOURCE=... HUB_IP=... HUB_PORT=... HUB_ENV=...
# HUB_STATE=... HUB_PYTHON=... EXCHANGE=...
# HUB_DOMAIN=example.edu (or localhost on one machine): each person's server on a
# subdomain of its own, <user>.example.edu (wildcard DNS and certificate: the guide)
# HUB_SETUP_ARGS="--hub-port N --proxy-api-port N --home-base DIR"
# each person's share of the machine (the guide: "A fair share"; 0: not limited):
# HUB_MEMORY=2G HUB_PROCESSES=512 HUB_SHM=256M HUB_TMP=512M HUB_CPUS=1 HUB_DISK=2G
HUB_ENV    ?= /opt/puzzlekit-hub
HUB_STATE  ?= /srv/puzzlekit-hub
# the students' servers run this Python as themselves: it must live where all can read
HUB_PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
ROSTER     ?= deploy/hub/roster.csv
COURSE_ID  ?= puzzlekit
COURSE_SOURCE ?= notebooks
HUB_IP     ?= 0.0.0.0
HUB_PORT   ?= 8000
HUB_DOMAIN ?=
HUB_MEMORY ?= 2G
HUB_PROCESSES ?= 512
HUB_SHM    ?= 256M
HUB_TMP    ?= 512M
HUB_CPUS   ?= 1
HUB_DISK   ?= 2G
HUB_STAMP  := $(HUB_ENV)/.installed-hub
# where the class environment's kit was installed from, and when (pip's record of it)
KIT_RECORD  = $(wildcard $(HUB_ENV)/lib/python3*/site-packages/puzzlekit-*.dist-info/direct_url.json)

.PHONY: hub hub-env hub-course

$(HUB_STAMP): pyproject.toml
	@test "$$(id -u)" = 0 || { echo "make hub-env: run it as root (it installs into $(HUB_ENV))"; exit 1; }
	$(HUB_PYTHON) deploy/hub/classroom.py check-python
	@# --copies: the environment's interpreter is a file of its own, not a chain of links
	@# into /usr/bin (the grading wall lets a kernel read each link of such a chain too)
	test -x $(HUB_ENV)/bin/python || $(HUB_PYTHON) -m venv --copies $(HUB_ENV)
	$(HUB_ENV)/bin/python -m pip install --quiet --upgrade pip
	$(HUB_ENV)/bin/python -m pip install --quiet ".[course,hub]"
	npm install --prefix $(HUB_ENV) --no-audit --no-fund --loglevel=error configurable-http-proxy@5
	mkdir -p $(HUB_ENV)/share/jupyter/lab/settings
	printf '%s\n' '{"@jupyterlab/apputils-extension:notification":' \
		'  {"fetchNews": "false", "checkForUpdates": false}}' \
		> $(HUB_ENV)/share/jupyter/lab/settings/overrides.json
	touch $@

# the class environment (JupyterHub, JupyterLab, nbgrader, this checkout's kit, the proxy),
# readable by every user; the kit itself is reinstalled whenever it may differ from the
# checkout's (installed from elsewhere, or a file of the package changed since)
KIT_INSTALL = $(HUB_ENV)/bin/python -m pip install --quiet --no-deps --no-build-isolation \
	--force-reinstall .
hub-env: $(HUB_STAMP)
	@if grep -qs '"url": "file://$(CURDIR)"' $(KIT_RECORD) /dev/null && [ -z "$$(find \
		pyproject.toml README.md puzzlekit -newer $(KIT_RECORD) ! -path '*/__pycache__*' \
		-print -quit)" ]; then echo "the kit in $(HUB_ENV) is this checkout's, unchanged"; \
	else echo "$(KIT_INSTALL)" && $(KIT_INSTALL); fi
	$(HUB_ENV)/bin/python deploy/hub/classroom.py check-env --env $(HUB_ENV)

# (hub-env has just checked the class environment: setup need not check it again)
HUB_SETUP = $(HUB_ENV)/bin/python deploy/hub/classroom.py setup --env-checked --env $(HUB_ENV) \
	--state $(HUB_STATE) --roster $(ROSTER) --course-id $(COURSE_ID) \
	--course-source $(COURSE_SOURCE) --exchange $(EXCHANGE) --ip $(HUB_IP) --port $(HUB_PORT) \
	--memory $(HUB_MEMORY) --processes $(HUB_PROCESSES) --shm $(HUB_SHM) --tmp $(HUB_TMP) \
	--cpus $(HUB_CPUS) --disk $(HUB_DISK) $(HUB_SETUP_ARGS)

hub-course: hub-env
	$(HUB_SETUP)

hub: hub-env
	$(HUB_SETUP)
	cd $(HUB_STATE) && PUZZLEKIT_HUB_STATE=$(HUB_STATE) PUZZLEKIT_HUB_DOMAIN=$(HUB_DOMAIN) \
		$(HUB_ENV)/bin/jupyterhub -f $(CURDIR)/deploy/hub/jupyterhub_config.py
