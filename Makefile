# puzzlekit: two commands do all the set-up on a fresh machine.
#   make lab   - creates .venv, installs the kit, opens JupyterLab on the course
#   make test  - creates .venv if needed, runs the whole suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: lab test bench venv clean exchange

# JupyterLab as the course wants it for everyone who uses this environment: no pop-up
# asking about Jupyter news over the first test output, no update check (overrides.json
# sets the defaults; a user may still change them in Settings)
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "puzzlekit needs Python >= 3.11"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[course,test]"
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
lab: $(STAMP) $(LAB_OVERRIDES)
	@echo "Opening JupyterLab on the course: http://$(IP):$(PORT)/lab (the URL with its token follows)"
	cd notebooks && PATH="$(CURDIR)/$(VENV)/bin:$$PATH" ../$(VENV)/bin/jupyter lab \
		--ServerApp.ip=$(IP) --ServerApp.port=$(PORT) $(NO_BROWSER) $(ALLOW_ROOT)

# nbgrader's exchange (Release, Fetch, Submit, Collect), once per machine, as root:
# mode 1777 = everyone may add files, nobody may remove another's. The course's
# nbgrader_config.py reads its place from PUZZLEKIT_EXCHANGE (default /srv/nbgrader/exchange).
EXCHANGE := $(or $(PUZZLEKIT_EXCHANGE),/srv/nbgrader/exchange)
exchange:
	mkdir -p $(EXCHANGE) && chmod 1777 $(EXCHANGE)
	@echo "exchange ready: $(EXCHANGE) (mode 1777)"

test: $(STAMP) $(LAB_OVERRIDES)
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
