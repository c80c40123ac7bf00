# toolcalc — the two commands are `make run` and `make test` (see README.md).
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= 2
PYTHON ?= /usr/bin/python3
DATA_DIR ?= var
CMAKE_OPTIONS = -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DTOOLCALC_WERROR=ON
# Where the suites write their JUnit results, read by `make test-times`.
RESULTS = $(abspath $(BUILD_DIR))/test-results
# node --test's arguments for the usual report on stdout plus JUnit results $(RESULTS)/NAME.xml
node_test_reports = --test-reporter=spec --test-reporter-destination=stdout \
	  --test-reporter=junit --test-reporter-destination=$(RESULTS)/$(1).xml
# The black-box suites run in PYTEST_WORKERS processes (pytest-xdist), each with its own
# servers, ports, redis-server and data directories, a file's tests kept together in one
# worker; then the tests marked `alone` (CPU-bound, or with a measured bound) one at a time.
PYTEST_WORKERS ?= 4
# `contract-test`: fewer, as each worker starts its own Prism, which takes 10-30 s of CPU to
# load the document (four at once on a busy 2-core machine missed their 90 s start bound).
CONTRACT_WORKERS ?= 2
# `pytest_suite,RESULTS_PREFIX,ENVIRONMENT[,WORKERS]`: the black-box suite run as above (both
# parts run; either failing fails it); its results are PREFIX.xml and PREFIX-alone.xml.
pytest_suite = $(2) $(PYTHON) -m pytest -q -n $(or $(3),$(PYTEST_WORKERS)) --dist loadfile \
	  -m 'not alone' \
	  --junitxml=$(1).xml tests/api; parallel=$$?; \
	$(2) $(PYTHON) -m pytest -q -m alone --junitxml=$(1)-alone.xml tests/api; alone=$$?; \
	[ $$parallel -eq 0 ] && [ $$alone -eq 0 ]

.PHONY: all deps test-deps configure build run test unit-test api-test api-test-redis chaos \
        clean format format-check node-deps lint-openapi contract-test mcp-test client-test \
        browser-test package package-test test-times

all: build

# What building and running the server needs (Debian packages; `make run`), and that plus
# what the tests need (`make test`): scripts/install-deps.sh, idempotent.
deps:
	./scripts/install-deps.sh

test-deps:
	./scripts/install-deps.sh test

# `make run`: the server's packages, its one target, and nothing of the tests. A build
# directory configured by `make run` first has the tests off (GoogleTest is a test package);
# one that `make build` configured keeps them on, so the two never undo each other.
RUN_TESTS_OPTION = $(if $(shell grep -s '^TOOLCALC_TESTS:BOOL=ON$$' $(BUILD_DIR)/CMakeCache.txt),ON,OFF)
run: deps
	cmake -S . -B $(BUILD_DIR) $(CMAKE_OPTIONS) -DTOOLCALC_TESTS=$(RUN_TESTS_OPTION)
	cmake --build $(BUILD_DIR) -j $(JOBS) --target toolcalc
	$(BUILD_DIR)/toolcalc serve --dev --data $(DATA_DIR)

# Everything: the server, the unit-test binaries and what the checks below run.
configure: test-deps
	cmake -S . -B $(BUILD_DIR) $(CMAKE_OPTIONS) -DTOOLCALC_TESTS=ON

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# chaos, the package and the checks of third-party tools build first (so that each works
# alone on a fresh clone); `make test` builds once, then runs each with BUILD_STEP empty.
BUILD_STEP ?= build

# `make test`: every check, one after the other, each timed (scripts/timed-stages.sh prints
# the table at the end, after a failure too; the first failure stops the run).
TEST_STAGES = test-deps format-check node-deps build unit-test api-test api-test-redis chaos \
              lint-openapi contract-test mcp-test client-test browser-test package-test
test:
	@rm -rf $(RESULTS)
	BUILD_STEP= MAKE="$(MAKE)" ./scripts/timed-stages.sh $(TEST_STAGES)

# The 20 slowest tests of the last `make test` and `make test-asan` (their JUnit results:
# ctest, pytest, node --test), and the time of each suite.
test-times:
	$(PYTHON) scripts/test_times.py 20 $(RESULTS) $(abspath $(ASAN_DIR))/test-results

unit-test:
	@mkdir -p $(RESULTS)
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --output-junit $(RESULTS)/ctest.xml

API_ENV = TOOLCALC_BIN=$(abspath $(BUILD_DIR))/toolcalc
api-test:
	$(call pytest_suite,$(RESULTS)/api-sqlite,$(API_ENV))

# The same suite with every server and `toolcalc keys` on the shared Redis store,
# against a real redis-server (AOF on) that the suite starts; adds the fleet test (three
# instances behind nginx, tests/api/test_fleet.py). Each worker starts its own redis-server.
api-test-redis:
	$(call pytest_suite,$(RESULTS)/api-redis,TOOLCALC_STORE=redis $(API_ENV))

# Faults injected for real against the built server, on both stores: SIGKILL under load,
# the data directory's file system full, file descriptors exhausted, the wall clock
# stepped, Redis killed or stalled (docs/reliability.md, "Chaos"). Mounts a tmpfs: root.
# The figures of the run go to $(BUILD_DIR)/chaos-figures.jsonl.
chaos: $(BUILD_STEP)
	CHAOS_FIGURES=$(abspath $(BUILD_DIR))/chaos-figures.jsonl \
	  TOOLCALC_BIN=$(abspath $(BUILD_DIR))/toolcalc $(PYTHON) -m pytest -q -rA \
	  --junitxml=$(RESULTS)/chaos.xml tests/chaos

# The Debian package (docs/deploy.md "Debian package"): the objects of `build`, linked once
# more with the installed catalog path, stripped, Depends derived by dpkg-shlibdeps.
# The file CPack wrote (toolcalc_VERSION_ARCH.deb), looked up when a recipe uses it.
DEB = $(lastword $(sort $(wildcard $(BUILD_DIR)/toolcalc_*.deb)))
package: $(BUILD_STEP)
	cmake --build $(BUILD_DIR) -j $(JOBS) --target toolcalc_package
	rm -f $(BUILD_DIR)/toolcalc_*.deb
	cd $(BUILD_DIR) && cpack -G DEB

# Installs the package (dpkg -i + apt-get -f install; as root, or through sudo), runs the
# installed service with its packaged config, calls it, then purges it (tests/package).
package-test: package
	TOOLCALC_DEB=$(abspath $(DEB)) TOOLCALC_BUILD_DIR=$(abspath $(BUILD_DIR)) \
	  $(PYTHON) -m pytest -q --junitxml=$(RESULTS)/package.xml tests/package

# The test tools of Node: packages pinned in package.json + package-lock.json (the server
# needs none: uPlot, which it embeds, is vendored in third_party/uplot).
# SCARF_ANALYTICS=false: Spectral's packages depend on @scarf/scarf, whose install script
# would report the installation over the network; this turns it off.
node-deps: node_modules/.package-lock.json

node_modules/.package-lock.json: package.json package-lock.json
	./scripts/install-node-deps.sh
	SCARF_ANALYTICS=false npm ci --no-audit --no-fund
	@touch $@

# The OpenAPI document, linted by two linters: Redocly CLI's recommended rules
# (redocly.yaml; errors fail) and Spectral's spectral:oas ruleset (.spectral.yaml; errors
# and warnings fail).
lint-openapi: $(BUILD_STEP) node-deps
	$(BUILD_DIR)/toolcalc openapi > $(BUILD_DIR)/openapi.json
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
	  node_modules/.bin/redocly lint $(BUILD_DIR)/openapi.json
	node_modules/.bin/spectral lint --ruleset .spectral.yaml --fail-severity=warn \
	  $(BUILD_DIR)/openapi.json

# The black-box suite again, through `prism proxy --errors` (tests/api/contract.py).
contract-test: $(BUILD_STEP) node-deps
	$(call pytest_suite,$(RESULTS)/api-contract,TOOLCALC_CONTRACT=1 $(API_ENV),$(CONTRACT_WORKERS))

# Third-party clients against a real server (tests/node): the MCP endpoint through the
# official MCP TypeScript SDK and through the MCP Inspector's CLI, and the TypeScript types
# openapi-typescript generates as docs/api.md says, compiled with tsc --strict and run;
# also the vendored uPlot against the registry's tarball (vendored_uplot.test.mjs).
mcp-test: $(BUILD_STEP) node-deps
	@mkdir -p $(RESULTS)
	TOOLCALC_BIN=$(abspath $(BUILD_DIR))/toolcalc node --test $(call node_test_reports,node) \
	  tests/node/

# The Python client (clients/python): installed from the source tree into a fresh venv with
# no package index (so offline), the venv seeing the system's pytest and requests; then its
# tests, run by that venv's python against a real server (tests/clients/python).
CLIENT_VENV = $(BUILD_DIR)/python-client-venv
client-test: $(BUILD_STEP)
	rm -rf $(CLIENT_VENV)
	$(PYTHON) -m venv --system-site-packages $(CLIENT_VENV)
	$(CLIENT_VENV)/bin/pip install --no-index --disable-pip-version-check --quiet ./clients/python
	TOOLCALC_BIN=$(abspath $(BUILD_DIR))/toolcalc \
	  $(CLIENT_VENV)/bin/python -m pytest -q -p no:cacheprovider \
	  --junitxml=$(RESULTS)/python-client.xml tests/clients/python

# The playground in a real browser: Debian's chromium, headless, driven by the
# pinned playwright-core (tests/browser). Screenshots go to build/artifacts/.
browser-test: $(BUILD_STEP) node-deps
	@mkdir -p $(RESULTS)
	TOOLCALC_BIN=$(abspath $(BUILD_DIR))/toolcalc TOOLCALC_ARTIFACTS=$(abspath $(BUILD_DIR))/artifacts \
	  node --test $(call node_test_reports,browser) tests/browser/

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

# Fails when a C++ file differs from what the project's .clang-format makes of it.
format-check: test-deps
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR)

# Benchmarks: Release build in build-release, toolcalc vs nginx under wrk,
# instructions per request, RSS, a profile, micro-benchmarks, scaling. See bench/bench.py.
.PHONY: bench
bench:
	./bench/run.sh

# The cost class of each tool's analyses (docs/analysis.md, "What an analysis costs"),
# measured on this machine: writes src/catalog/analysis_cost_table.cpp and prints the price
# list for docs/analysis.md. Run it on a quiet machine when a tool is added or changed.
.PHONY: analysis-costs
analysis-costs: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target analysis_costs
	$(BUILD_DIR)/analysis_costs --markdown $(BUILD_DIR)/analysis-costs.md \
	  > src/catalog/analysis_cost_table.cpp.new
	mv src/catalog/analysis_cost_table.cpp.new src/catalog/analysis_cost_table.cpp
	clang-format -i src/catalog/analysis_cost_table.cpp
	cat $(BUILD_DIR)/analysis-costs.md

# Fuzzing and sanitizers (docs/reliability.md). `make fuzz`: the libFuzzer targets
# of fuzz/, built with clang under ASan+UBSan in build-fuzz; each replays its saved crashes
# (fuzz/regressions/) then fuzzes for FUZZ_SECONDS on a copy of its seed corpus.
# `make test-asan`: everything built with g++ under ASan+UBSan in build-asan, then ctest and
# the black-box suite on both stores against that one build; any sanitizer report fails it.
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 30
FUZZ_TARGETS ?= fuzz_http fuzz_tools fuzz_analysis fuzz_config fuzz_resp fuzz_get
ASAN_DIR ?= build-asan
ASAN_RESULTS = $(abspath $(ASAN_DIR))/test-results
SANITIZE_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SANITIZER_ENV = TOOLCALC_SANITIZED=1 \
  ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:print_stacktrace=1:check_initialization_order=1:strict_init_order=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Servers started by pytest run through a wrapper that copies their stderr here: a report
# printed at exit (a leak after SIGTERM) must fail the run even if its test has passed.
# (log_path is no use: g++'s UBSan runtime ignores it when linked with ASan.)
SANITIZER_LOGS = $(abspath $(ASAN_DIR))/sanitizer-logs
SANITIZER_REPORT = ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: (Address|UndefinedBehavior|Leak)Sanitizer

ASAN_API_ENV = $(SANITIZER_ENV) TOOLCALC_BIN=$(abspath $(ASAN_DIR))/toolcalc-logged

.PHONY: fuzz test-asan
# OSS-Fuzz's flags: -O1 with line tables only (symbolized stacks, a third less compile
# time than -g), and no NDEBUG, so that Boost's internal assertions stay on.
fuzz: test-deps
	cmake -S . -B $(FUZZ_DIR) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
	  -DTOOLCALC_FUZZ=ON -DTOOLCALC_TESTS=OFF -DTOOLCALC_WERROR=ON
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target $(FUZZ_TARGETS)
	./fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# -O1: ASan's recommendation (usable speed, exact stacks); Debug keeps assert(); -g1
# (line tables) is all a report needs and compiles a third faster than -g;
# _GLIBCXX_ASSERTIONS bounds-checks the standard containers. Warnings are not errors here:
# g++ warns falsely under -fsanitize (-Wmaybe-uninitialized in <regex>, a mismatched
# aligned_alloc in Asio), and `make build` already enforces -Werror on the same code.
test-asan: test-deps
	cmake -S . -B $(ASAN_DIR) -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Debug \
	  -DTOOLCALC_WERROR=OFF "-DCMAKE_CXX_FLAGS=-O1 $(SANITIZE_FLAGS) -D_GLIBCXX_ASSERTIONS" \
	  -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
	  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined"
	cmake --build $(ASAN_DIR) -j $(JOBS)
	@rm -rf $(SANITIZER_LOGS) $(ASAN_RESULTS) && mkdir -p $(SANITIZER_LOGS) $(ASAN_RESULTS)
	@printf '%s\n' '#!/usr/bin/env bash' \
	  'exec 2> >(tee -a "$(SANITIZER_LOGS)/toolcalc.$$$$.stderr" >&2)' \
	  'exec "$(abspath $(ASAN_DIR))/toolcalc" "$$@"' > $(ASAN_DIR)/toolcalc-logged
	@chmod +x $(ASAN_DIR)/toolcalc-logged
	@status=0; \
	(cd $(ASAN_DIR) && $(SANITIZER_ENV) ctest --output-on-failure -j $(JOBS) \
	  --output-junit $(ASAN_RESULTS)/ctest.xml) || status=1; \
	($(call pytest_suite,$(ASAN_RESULTS)/api-sqlite,$(ASAN_API_ENV))) || status=1; \
	($(call pytest_suite,$(ASAN_RESULTS)/api-redis,TOOLCALC_STORE=redis $(ASAN_API_ENV))) \
	  || status=1; \
	if grep -l -E '$(SANITIZER_REPORT)' $(SANITIZER_LOGS)/* > $(SANITIZER_LOGS)/reports 2>/dev/null; then \
	  echo "test-asan: sanitizer reports from servers:"; cat $$(cat $(SANITIZER_LOGS)/reports); status=1; \
	fi; \
	if [ $$status -ne 0 ]; then echo "test-asan: FAILED"; else echo "test-asan: passed, no sanitizer report"; fi; \
	exit $$status
