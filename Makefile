# puzzlekit: two commands do all the set-up on a fresh machine.
#   make lab   - creates .venv, installs the kit, opens JupyterLab on the course
#   make test  - creates .venv if needed, runs the whole suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: lab test bench venv clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "puzzlekit needs Python >= 3.11"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[course,test]"
	touch $(STAMP)

venv: $(STAMP)

# root (containers, CI machines) needs --allow-root; everyone else gets the plain command
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(STAMP)
	cd notebooks && ../$(VENV)/bin/jupyter lab $(ALLOW_ROOT)   # from the course root, so nbgrader finds its config

test: $(STAMP)
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
