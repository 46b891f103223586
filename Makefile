# The two commands: `make dev` serves the whole site at http://127.0.0.1:8787,
# `make test` runs every test. Both install what is missing first.

SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
ROOT := $(CURDIR)
TOOLS := $(ROOT)/.tools
BIN := $(ROOT)/node_modules/.bin
export PATH := $(TOOLS)/bin:$(BIN):$(PATH)

# worker-build downloads wasm-bindgen, esbuild and wasm-opt unless told where
# local ones are: the CLI from .tools/, the other two from npm.
export WASM_BINDGEN_BIN := $(TOOLS)/bin/wasm-bindgen
export ESBUILD_BIN := $(BIN)/esbuild
export WASM_OPT_BIN := $(BIN)/wasm-opt

WORKER_OUT := worker/build/index.js
WASM_FEATURES := $(foreach f,mutable-globals sign-ext nontrapping-float-to-int bulk-memory multivalue reference-types exception-handling,--enable-$(f))
# What the worker is built from: its sources and manifests, plus every file
# the compiler read for the last build (cargo's dependency list: agency.json
# and anything else `include_str!` embeds), so changing one rebuilds it.
WORKER_DEPS := .build/worker.d
WORKER_SRC := $(shell find worker/src -type f) worker/Cargo.toml Cargo.toml Cargo.lock agency.json
-include $(WORKER_DEPS)
PAGES_OUT := pages/dist/index.html
PAGES_SRC := $(shell find pages -path pages/dist -prune -o -type f -print) agency.json package-lock.json scripts/prerender.mjs
PORT ?= 8787
# The local D1 (and the rest of wrangler's local state) of `make dev`.
DEV_STATE ?= .wrangler/state

.PHONY: dev serve deploy backup test test-clock setup setup-browser build worker pages db dev-vars check unit-tests build-tests api-tests e2e-tests deploy-check bench clean

## Serve the whole site locally with a local D1 (the first command of the README).
## After changing Rust code, `make worker` in another terminal: the server reloads.
dev: setup build dev-vars db
	@$(MAKE) --no-print-directory serve

## `wrangler dev` on what is built and the local D1 as it is (make dev's last
## step), with the cron handler fired every minute as Cloudflare does. Links
## in the notices and alerts it logs point at this local site.
serve:
	node scripts/dev-server.mjs --ip 127.0.0.1 --port $(PORT) --persist-to $(DEV_STATE) \
	  --var SITE_ORIGIN:http://127.0.0.1:$(PORT) --show-interactive-dev-session=false $(DEV_ARGS)

## Build, upgrade the production D1 (new migrations only), then deploy to
## Cloudflare (needs `wrangler login` and the D1 id in wrangler.toml).
deploy: setup build
	wrangler d1 migrations apply DB --remote
	wrangler deploy

## A copy of the production D1 (every row, the search index included) in
## backups/, to restore into a new database (README, Deploy).
backup: setup
	@mkdir -p backups
	node scripts/backup.mjs --remote --output backups/d1-$$(date +%F-%H%M).sql

## Run every test (the second command; .ci/run calls it). After the set-up,
## the worker's build (one core: its link and wasm-opt) runs beside the checks,
## the unit tests and the pages' build; then the tests that need it, in turn.
test: test-clock setup-browser
	@$(MAKE) --no-print-directory -j2 --output-sync=target worker check unit-tests pages
	@$(MAKE) --no-print-directory build-tests api-tests e2e-tests deploy-check
	@seconds=$$(( $$(date +%s) - $$(cat .build/test-start) )); \
	  echo "{\"seconds\": $$seconds, \"when\": \"$$(date -u +%F)\"}" > .build/test-time.json; \
	  echo "All tests passed in $$(( seconds / 60 )) min $$(( seconds % 60 )) s (make bench holds it to its budget)."

# When `make test` started, for the time it reports.
test-clock:
	@mkdir -p .build && date +%s > .build/test-start

setup:
	@scripts/setup.sh

setup-browser:
	@scripts/setup.sh --browser

build: worker pages

worker: $(WORKER_OUT)
$(WORKER_OUT): $(WORKER_SRC)
	cd worker && worker-build --release
	@# The function names stay in .build/worker-names.wasm, wasm-bindgen's
	@# output (for twiggy and the build test); the module that ships leaves
	@# them out and is optimised once for size without them (names hold some
	@# of wasm-opt's rewrites back), with the feature set workerd runs.
	@mkdir -p .build
	cp worker/build/index_bg.wasm .build/worker-names.wasm
	wasm-opt worker/build/index_bg.wasm --strip-debug --strip-producers -Oz $(WASM_FEATURES) -o worker/build/index_bg.wasm
	@mkdir -p $(dir $(WORKER_DEPS))
	@deps=$$(sed -e 's/^[^:]*://' target/wasm32-unknown-unknown/release/lead_worker.d); \
	  { echo "$(WORKER_OUT): $$deps"; for d in $$deps; do echo "$$d:"; done; } > $(WORKER_DEPS)
	@touch $@

pages: $(PAGES_OUT)
$(PAGES_OUT): $(PAGES_SRC)
	npm run --silent build:pages

## Create or upgrade the local D1 (under $(DEV_STATE)): the migrations not applied yet.
db:
	wrangler d1 migrations apply DB --local --persist-to $(DEV_STATE)

## Local secrets: .dev.vars from .dev.vars.example, with a fresh signing key.
dev-vars: .dev.vars
.dev.vars:
	sed "s/^JWT_SECRET=.*/JWT_SECRET=$$(node -e "process.stdout.write(require('crypto').randomBytes(32).toString('hex'))")/" .dev.vars.example > $@

check:
	cargo fmt --all -- --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown -p lead-worker -- -D warnings
	npm run --silent typecheck
	npm run --silent lint

unit-tests:
	cargo test --quiet
	npm run --silent test:unit

## The built landing page: weight budgets of its first load, content in the HTML.
build-tests: build
	npm run --silent test:build

api-tests: build
	npm run --silent test:api

e2e-tests: build
	npm run --silent test:e2e

## A deploy that would fail (bundle over the size limit, broken wrangler.toml) fails here.
deploy-check: build
	wrangler deploy --dry-run --outdir .build/deploy-check

## Figures, not a test: throughput and latency on a D1 seeded with 100,000
## leads, CPU per sign-in and per lead, page weight, WASM size, Lighthouse.
bench: setup setup-browser
	node scripts/bench.mjs

clean:
	rm -rf worker/build pages/dist .build target
