# expense-log: build, test, run, install. Only the Swift toolchain and python3 (for the test server) are needed.
SWIFT   ?= swift
PREFIX  ?= /usr/local
CONFIG  ?= release
BINDIR   = $(PREFIX)/bin
SHAREDIR = $(PREFIX)/share/expense-log
# STATIC=1 links the Swift runtime and Foundation into the binary so it runs without the toolchain
# (on Linux this links libcurl, so its development files are needed: `static-deps` installs them).
STATIC_FLAG = $(if $(STATIC),--static-swift-stdlib,)

.PHONY: build test run install install-files static-deps bench clean

build:
	$(SWIFT) build

# Builds everything first, so the CLI tests find the expense-log binary next to the test bundle.
test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The main job in the dummy environment: no network, no configuration.
run: build
	"$$($(SWIFT) build --show-bin-path)/expense-log" --env dummy fetch --year 2024 --month 1

install: $(if $(STATIC),static-deps)
	$(SWIFT) build -c $(CONFIG) $(STATIC_FLAG)
	$(MAKE) install-files BIN="$$($(SWIFT) build -c $(CONFIG) $(STATIC_FLAG) --show-bin-path)/expense-log"

# Without libcurl.so a static link ends in a wall of undefined curl_* symbols: check first, install it with apt-get
# as root (as bench.py does), else stop with one line saying what to install.
static-deps:
	@if [ "$$(uname -s)" = Linux ] && ! ls /usr/lib/*/libcurl.so /usr/lib64/libcurl.so /usr/lib/libcurl.so >/dev/null 2>&1; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	        echo "make: STATIC=1 links libcurl, whose development files are missing: apt-get install libcurl4-openssl-dev" >&2; \
	        apt-get update -qq && apt-get install -y -qq libcurl4-openssl-dev >&2 || exit 1; \
	    else \
	        echo "make: STATIC=1 links libcurl: install its development files (libcurl4-openssl-dev, or libcurl-devel) and run again" >&2; \
	        exit 1; \
	    fi; \
	fi

# Copies a built binary and the dummy fixtures it finds in ../share/expense-log.
install-files:
	@test -n "$(BIN)" || { echo "install-files needs BIN=path/to/expense-log" >&2; exit 64; }
	install -d "$(BINDIR)" "$(SHAREDIR)"
	install -m 755 "$(BIN)" "$(BINDIR)/expense-log"
	install -m 644 Resources/fetch.json Resources/register.json "$(SHAREDIR)/"

# Benchmarks against curl, jq and a plain Python script; not part of `make test`. Installs curl, jq, GNU time and
# libcurl's headers if missing, measures the binary `make install STATIC=1` installs, and writes bench/results.md.
# BENCH_FLAGS="--only import --rounds 3" narrows it; `python3 bench/bench.py --help` lists the flags.
bench:
	python3 bench/bench.py --install-tools
	$(SWIFT) build -c release --static-swift-stdlib
	python3 bench/bench.py --binary "$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)/expense-log" $(BENCH_FLAGS)

clean:
	rm -rf .build
