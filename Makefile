# toolcalc — the two commands are `make run` and `make test` (see README.md).
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= 2
PYTHON ?= /usr/bin/python3
DATA_DIR ?= var

.PHONY: all deps configure build run test unit-test api-test clean format

all: build

deps:
	./scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DTOOLCALC_WERROR=ON

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/toolcalc serve --dev --data $(DATA_DIR)

test: build unit-test api-test

unit-test:
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

api-test:
	TOOLCALC_BIN=$(abspath $(BUILD_DIR))/toolcalc $(PYTHON) -m pytest -q tests/api

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR)
