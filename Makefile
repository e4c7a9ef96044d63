# incidents: two commands do everything on a fresh machine.
#   make run    builds, loads the bundled corpus into incidents.duckdb, recomputes
#               related links and writes the quarterly report
#   make test   installs what the tests need, then go vet and every test
# Every install step below is idempotent.

SHELL := /bin/bash
GO ?= go
export CGO_ENABLED := 1

BIN := cmd/incidents/incidents
DB ?= incidents.duckdb
REPORT ?= report.html
ECHARTS_VERSION := 5.6.0
ECHARTS := reports/assets/echarts.min.js
GOSRC := $(shell find . -name '*.go' -not -path './.git/*') $(shell find taxonomy similarity \( -name '*.yaml' -o -name '*.txt' \) -not -path '*/testdata/*') go.mod go.sum

.PHONY: all build run test test-short bench bench-compare deps-bench fuzz-short assets deps-test install clean lint tidy-check fmt-check vet staticcheck staticcheck-install eval-compare

all: build

build: $(BIN)

# 'incidents version' prints VERSION (the commit, and "-dirty" for a tree
# with changes); without it, what Go records of the build.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)

$(BIN): $(GOSRC) $(ECHARTS) $(shell find data/cases data/labels taxonomy/model -type f 2>/dev/null)
	$(GO) build -ldflags "-X incidents/cmd/incidents/cli.Version=$(VERSION)" -o $(BIN) ./cmd/incidents

# ECharts is taken from the npm registry at build time and inlined into
# reports; the minified file is never committed (see .gitignore).
assets: $(ECHARTS)
$(ECHARTS):
	@command -v npm >/dev/null || { echo "npm is needed to fetch ECharts (apt-get install npm)"; exit 1; }
	@tmp=$$(mktemp -d) && cd $$tmp && npm pack --silent echarts@$(ECHARTS_VERSION) >/dev/null && \
	  tar -xzf echarts-$(ECHARTS_VERSION).tgz package/dist/echarts.min.js package/LICENSE && \
	  cp package/dist/echarts.min.js $(CURDIR)/$(ECHARTS) && \
	  cp package/LICENSE $(CURDIR)/reports/assets/ECHARTS-LICENSE && rm -rf $$tmp
	@echo "fetched echarts $(ECHARTS_VERSION) -> $(ECHARTS)"

# The official MCP TypeScript SDK client drives the MCP server in
# cmd/incidents/cli TestMCPOfficialClient; package.json and package-lock.json
# pin it, npm ci installs exactly that into node_modules (not committed),
# again only when the pins change.
MCP_NPM := cmd/incidents/internal/mcptools/testdata/npm
MCP_CLIENT := $(MCP_NPM)/node_modules/.package-lock.json
$(MCP_CLIENT): $(MCP_NPM)/package.json $(MCP_NPM)/package-lock.json
	@command -v npm >/dev/null || { echo "npm is needed to install the MCP test client (apt-get install npm)"; exit 1; }
	@cd $(MCP_NPM) && npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@
	@echo "installed the MCP test client ($(MCP_NPM)/node_modules)"

# DuckDB's official Node.js client (its own build of DuckDB) reads a
# database the commands leave and its Parquet export in cmd/incidents/cli
# TestOfficialDuckDBClient; pinned and installed the same way.
DUCKDB_NPM := cmd/incidents/cli/testdata/duckdb-node
DUCKDB_CLIENT := $(DUCKDB_NPM)/node_modules/.package-lock.json
$(DUCKDB_CLIENT): $(DUCKDB_NPM)/package.json $(DUCKDB_NPM)/package-lock.json
	@command -v npm >/dev/null || { echo "npm is needed to install DuckDB's Node.js client (apt-get install npm)"; exit 1; }
	@cd $(DUCKDB_NPM) && npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@
	@echo "installed DuckDB's Node.js client ($(DUCKDB_NPM)/node_modules)"

# Debian Chromium drives the browser tests; Debian's scikit-learn runs the
# plain TF-IDF anchor the ranking gate compares with (similarity/evalset);
# node runs the official MCP client; pandoc writes the Word documents the
# docx importer is tested on (data/ingest TestDocxWrittenByPandoc).
deps-test: $(MCP_CLIENT) $(DUCKDB_CLIENT)
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	@/usr/bin/python3 -c 'import sklearn' 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-sklearn >/dev/null; }
	@command -v pandoc >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pandoc >/dev/null; }

run: build
	./$(BIN) --db $(DB) ingest --bundled
	./$(BIN) --db $(DB) related --recompute
	./$(BIN) --db $(DB) stats --by root_cause_class
	./$(BIN) --db $(DB) report --out $(REPORT)
	@echo "report: $(CURDIR)/$(REPORT)"
	@echo "next: ./$(BIN) related IL-0395 --explain | ./$(BIN) serve | ./$(BIN) sql"

# The suite takes 10-14 minutes here; one package's tests may take 18
# when the machine is busy, so the per-package limit leaves room for that.
test: $(ECHARTS) deps-test lint
	$(GO) test -count=1 -timeout 40m ./...
	$(MAKE) --no-print-directory fuzz-short FUZZTIME=5000x

# lint is every static check make test runs first; each runs alone too.
#   tidy-check   go.mod and go.sum are what 'go mod tidy' would write
#   fmt-check    no file differs from gofmt
#   vet          go vet
#   staticcheck  staticcheck at a pinned version (installed from the module proxy)
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck
lint: tidy-check fmt-check vet staticcheck

tidy-check:
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run 'go mod tidy'"; exit 1; }

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  [ -z "$$out" ] || { echo "not gofmt-formatted (run gofmt -w):"; echo "$$out"; exit 1; }

vet: $(ECHARTS)
	$(GO) vet ./...

# Installed once per machine at the pinned version; a different version is replaced.
staticcheck-install:
	@$(STATICCHECK) -version 2>/dev/null | grep -q '($(STATICCHECK_VERSION:v%=%))' || \
	  $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

staticcheck: $(ECHARTS) staticcheck-install
	$(STATICCHECK) ./...

test-short: $(ECHARTS)
	$(GO) test -short -count=1 ./...

# A count, not a duration: Go 1.26's fuzz coordinator can fail a target with
# "context deadline exceeded" when a duration runs out mid-execution
# (go.dev/issue/75804); a count has no deadline to race.
FUZZTIME ?= 50000x

# fuzz-short runs every fuzz target of the tree for FUZZTIME executions each
# (make test runs 5000); targets are found by name, so new ones join by
# themselves.
fuzz-short: $(ECHARTS)
	@set -e; for f in $$(grep -rl --include='*_test.go' '^func Fuzz' .); do \
	  pkg=$$(dirname $$f); \
	  for t in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    echo "== $$pkg $$t"; \
	    $(GO) test $$pkg -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) -parallel 2 -fuzzminimizetime 1x; \
	  done; done

# The related-case ranking side by side on both labelled sets, plain TF-IDF
# (scikit-learn) beside our text half, tag half and combined score, with the
# text weight that wins on each; TUNE=1 also searches every weight on one set
# and reports it on the others. Re-run it whenever the tagger changes.
SHARED ?= ../shared
eval-compare: build deps-test
	./$(BIN) eval --compare --corpus bundled --corpus $(SHARED)/corpora/icco-postmortems \
	  --anchor $(SHARED)/anchors/tfidf_rank_sklearn.py $(if $(TUNE),--tune)

bench: $(ECHARTS)
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 60m ./...

# The all-links recompute beside its peers, in one run on one generated
# corpus (BENCH_N cases, seed 5): ours end to end, scikit-learn's
# TfidfVectorizer + ing-bank's sparse_dot_topn 0.3.6 on every core, and
# TfidfVectorizer + a chunked product; prints each round and the ratios.
# sparse_dot_topn is built from ../shared/anchors into .anchors/ (ignored by
# git); the corpus and database go to .bench/. Not part of 'make test'.
BENCH_N ?= 10000
BENCH_ROUNDS ?= 3
ANCHORS ?= $(SHARED)/anchors
SDT_DIR := $(CURDIR)/.anchors/sparse_dot_topn
bench-compare: build deps-bench
	@bash $(ANCHORS)/build_sparse_dot_topn.sh $(SDT_DIR) >/dev/null
	@bash similarity/testdata/bench/compare.sh $(BIN) $(ANCHORS) $(SDT_DIR) $(CURDIR)/.bench $(BENCH_N) $(BENCH_ROUNDS)

# Debian's Cython, NumPy, SciPy and scikit-learn build and run the anchors.
deps-bench:
	@/usr/bin/python3 -c 'import Cython, numpy, scipy, sklearn' 2>/dev/null && command -v g++ >/dev/null && command -v bc >/dev/null || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cython3 python3-numpy python3-scipy python3-sklearn python3-dev g++ bc >/dev/null; }

install: $(ECHARTS)
	$(GO) install ./cmd/incidents

clean:
	rm -f $(BIN) $(REPORT)
