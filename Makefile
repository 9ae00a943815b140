# The two commands a newcomer needs are `make run` and `make test`; the rest are their parts.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
MANAGE := $(PY) manage.py
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run install migrate seed site admin-user roles sync-seed browser messages compile-messages test test-sqlite lint imports format bench bench-memory bench-tools clean deploy-tools smoke docs docs-serve

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $@

install: $(VENV)/.installed

compile-messages: install
	$(MANAGE) compilemessages -l en -l zh_Hant --ignore='.venv/*' --ignore='var/*' -v 0

messages: install
	$(MANAGE) makemessages -l en -l zh_Hant --ignore='.venv/*' --ignore='var/*' --ignore='tests/*' \
		--ignore='test-artifacts/*' --ignore='node_modules/*' --no-obsolete --no-location
	@# The creation date changes on every run and would only cause merge conflicts.
	sed -i '/^"POT-Creation-Date: /d' locales/*/LC_MESSAGES/django.po

migrate: install
	mkdir -p var
	$(MANAGE) migrate --noinput -v 0

seed: migrate
	$(MANAGE) import_digests

# Pages' html_url in the API point at the development server.
site: seed
	$(MANAGE) set_site_address http://$(HOST):$(PORT)

admin-user: migrate
	$(MANAGE) create_local_admin

roles: seed
	$(MANAGE) setup_translation_roles --local-users

# The seed's papers carry titles only until a sync fills in DOIs, authors and abstracts. They are
# synced once, on the first `make run` that reaches the sources (a quick probe first says so
# when none answers); a sync with errors does not stop `make run` either: "Sync all papers" in
# the admin (Metadata sync > Sync runs) tries again.
sync-seed: seed
	@$(MANAGE) sync_papers --never-synced --if-reachable || \
	  echo "Some papers could not be synced (see above); the site runs without them."

# The browser tests drive Debian's chromium (Playwright cannot download browsers here) and need
# a CJK font to render Traditional Chinese in screenshots; installed once, skipped when present.
BROWSER_PACKAGES := chromium fonts-wqy-microhei
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@dpkg -s $(BROWSER_PACKAGES) >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(BROWSER_PACKAGES); }

run: compile-messages seed site admin-user roles sync-seed
	@$(MANAGE) local_logins
	@echo "Admin: http://$(HOST):$(PORT)/admin/"
	@echo "API:   http://$(HOST):$(PORT)/api/v2/pages/"
	WAGTAILADMIN_BASE_URL=$${WAGTAILADMIN_BASE_URL:-http://$(HOST):$(PORT)} $(MANAGE) runserver $(HOST):$(PORT)

test: install compile-messages browser deploy-tools docs imports
	$(BIN)/pytest -q

# The import layers declared in pyproject.toml ([tool.importlinter]): the API foundation at the
# bottom, apps that never import each other, sync reaching cms only through papers and ops.
imports: install
	$(BIN)/lint-imports --no-cache

# The documentation site (mkdocs.yml, docs/) into the git-ignored site/; --strict fails on any
# warning (a broken link, a page missing from the nav). Offline: nothing is fetched at build time.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# The same site served with live reload on http://127.0.0.1:8001/ while writing it.
docs-serve: install
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

# The Compose CLI validates deploy/compose.yaml in the suite (the container engine is not needed).
deploy-tools:
	@docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq --no-install-recommends docker-compose >/dev/null; }

# The production configuration end to end on this machine (deploy/smoke/; PostgreSQL and Redis
# must answer). `make test` runs it in its PostgreSQL pass.
smoke: install
	$(PY) -m deploy.smoke

lint: install imports
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# wrk (Debian package) loads the benchmark server; installed once, skipped when present.
bench-tools:
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }

# Issue 22: the scenario in a throwaway database, measured against its baselines (docs/development.md).
bench: install compile-messages bench-tools
	$(PY) -m bench

# The translation memory row of `make bench` alone (a throwaway SQLite database, no server).
bench-memory: install
	$(PY) -m bench.memory_bench

clean:
	rm -rf $(VENV) var/db.sqlite3* var/static site
