# expense-log: build, test, run, install. The Swift toolchain, libcurl's headers (installed here when missing) and
# python3 (for the test server) are needed.
SWIFT   ?= swift
PREFIX  ?= /usr/local
CONFIG  ?= release
BINDIR   = $(PREFIX)/bin
SHAREDIR = $(PREFIX)/share/expense-log
# STATIC=1, the default on Linux, links the Swift runtime and Foundation into the binary: it starts without binding
# the Swift libraries (in about half the time of `curl --version`: make bench, start-up) and runs without the
# toolchain. STATIC= links them dynamically; macOS has no static Swift runtime.
STATIC ?= $(if $(filter Linux,$(shell uname -s)),1,)
# STRIP=1, the default, installs the binary without its symbol table and debug information (what a user runs needs
# neither; the size is in the README); `make install STRIP=` keeps them, for a debugger or a symbolicated backtrace.
STRIP ?= 1
STATIC_FLAG = $(if $(STATIC),--static-swift-stdlib,)

.PHONY: build test test-spawned test-deps beancount lint portability run install install-files deb bench clean deps

# libcurl's headers, for the live transport on Linux (libcurl, which the binary loads at its first request). Installed
# with apt-get when missing; elsewhere, say what to install.
deps:
	@if [ "$$(uname -s)" = Linux ] && ! ls /usr/include/curl/curl.h /usr/include/*/curl/curl.h 2>/dev/null | grep -q .; then \
		if command -v apt-get >/dev/null; then \
			echo "Installing libcurl's headers (libcurl4-openssl-dev), which the build needs…"; \
			{ apt-get update -qq && apt-get install -y -qq libcurl4-openssl-dev >/dev/null; } || \
				{ echo "error: could not install libcurl4-openssl-dev; install it (as root) and run make again" >&2; exit 1; }; \
		else \
			echo "error: libcurl's headers are missing: install your system's libcurl development package (libcurl-devel, libcurl4-openssl-dev)" >&2; exit 1; \
		fi; \
	fi

build: deps
	$(SWIFT) build

# What the tests run besides the binary: hledger and Ledger (the export tests read what export writes), zsh and fish
# (their completion scripts), Chromium and a Japanese font (the
# report page), Node.js (the web app's Code.gs). Installed with apt-get when missing (Homebrew on a Mac); elsewhere,
# say what to install.
# On macOS: zsh is the system's (/bin/zsh), and the Japanese fonts too (Hiragino, which Chromium finds through Core
# Text; macOS has no fc-list); fish and node come from Homebrew, and the report-page test takes `chromium` on PATH,
# /Applications/Chromium.app or Google Chrome.app (Tests/ReferenceServer/browser_check.py), installing Google Chrome
# when there is none: Homebrew's chromium cask is an unsigned snapshot that Gatekeeper may refuse to start.
test-deps:
ifeq ($(shell uname -s),Darwin)
	@missing=""; cask=""; browser=""; \
	for program in zsh fish node groff hledger ledger; do command -v $$program >/dev/null || missing="$$missing $$program"; done; \
	for candidate in "$$(command -v chromium)" "$$(command -v chromium-browser)" \
		/Applications/Chromium.app/Contents/MacOS/Chromium "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" \
		"$$HOME/Applications/Chromium.app/Contents/MacOS/Chromium" \
		"$$HOME/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"; do \
		[ -n "$$candidate" ] && [ -x "$$candidate" ] && { browser="$$candidate"; break; }; \
	done; \
	[ -n "$$browser" ] || cask="google-chrome"; \
	if [ -n "$$missing$$cask" ]; then \
		if command -v brew >/dev/null; then \
			echo "make: installing$$missing$${cask:+ $$cask (a cask)} with Homebrew (the completion, report-page and web-app tests run them)" >&2; \
			{ [ -z "$$missing" ] || brew install $$missing; } && { [ -z "$$cask" ] || brew install --cask $$cask; } || \
				{ echo "make: could not install$$missing $$cask with Homebrew; install them and run make test again" >&2; exit 1; }; \
		else \
			echo "make: the tests need$$missing$${missing:+$${cask:+ and}}$${cask:+ Google Chrome or Chromium}; with Homebrew (https://brew.sh):" \
				"$${missing:+brew install$$missing}$${missing:+$${cask:+ && }}$${cask:+brew install --cask $$cask}," \
				"then run make test again" >&2; exit 1; \
		fi; \
	fi
else
	@missing=""; \
	for program in zsh fish chromium openssl hledger ledger; do command -v $$program >/dev/null || missing="$$missing $$program"; done; \
	python3 -c 'import ensurepip' 2>/dev/null || missing="$$missing python3-venv"; \
	command -v node >/dev/null || missing="$$missing nodejs"; \
	command -v groff >/dev/null || missing="$$missing groff-base"; \
	fc-list 2>/dev/null | grep -qi ipagothic || missing="$$missing fonts-ipafont-gothic"; \
	if [ -n "$$missing" ]; then \
		if command -v apt-get >/dev/null; then \
			echo "make: installing$$missing with apt-get (the completion, report-page and web-app tests run them)" >&2; \
			{ apt-get update -qq && apt-get install -y -qq $$missing >/dev/null; } || \
				{ echo "make: could not install$$missing; install them and run make test again" >&2; exit 1; }; \
		else \
			echo "make: the tests need$$missing; install them and run make test again" >&2; exit 1; \
		fi; \
	fi
endif
	@$(MAKE) -s beancount

# Builds everything first, so the CLI tests find the expense-log binary next to the test bundle. The layout is checked
# on Linux, with the toolchain CI pins: Xcode's swift-format may lay out a construct a little differently.
LINT_IN_TEST = $(if $(filter Linux,$(shell uname -s)),lint,)
test: deps test-deps $(LINT_IN_TEST)
	$(SWIFT) build --build-tests
	PATH="$(TEST_TOOLS)/bin:$$PATH" $(SWIFT) test --skip-build

# Beancount's bean-check and bean-query (from PyPI, not a Debian or Homebrew package), which the export tests run: used
# from PATH when there, else installed once into a virtual environment under .build (linked into $(TEST_TOOLS)/bin).
TEST_TOOLS = $(CURDIR)/.build/test-tools
beancount:
	@if ! command -v bean-check >/dev/null || ! command -v bean-query >/dev/null; then \
		if [ ! -x "$(TEST_TOOLS)/bin/bean-query" ]; then \
			echo "make: installing beancount and beanquery from PyPI into $(TEST_TOOLS) (the export tests run them)" >&2; \
			python3 -m venv "$(TEST_TOOLS)/venv" && "$(TEST_TOOLS)/venv/bin/pip" install -q beancount beanquery && \
			mkdir -p "$(TEST_TOOLS)/bin" && ln -sf "$(TEST_TOOLS)/venv/bin/bean-check" "$(TEST_TOOLS)/bin/bean-check" && \
			ln -sf "$(TEST_TOOLS)/venv/bin/bean-query" "$(TEST_TOOLS)/bin/bean-query" || \
				{ echo "make: could not install beancount; pip install beancount beanquery, then run make test again" >&2; exit 1; }; \
		fi; \
	fi

# The code's layout as .swift-format sets it (lines of at most 120 columns), checked with the toolchain's own
# swift-format; `swift format -i -r Sources Tests` applies it. Package.swift is kept as written (Tests/Layers reads it).
lint:
	$(SWIFT) format lint --strict -r Sources Tests

# The same tests with every command the CLI tests run spawned as the built binary (they run in-process by default,
# except where a process is needed): the whole path through main.swift, as CI checks it too.
test-spawned: deps test-deps
	$(SWIFT) build --build-tests
	PATH="$(TEST_TOOLS)/bin:$$PATH" EXPENSE_LOG_TESTS_SPAWN=1 $(SWIFT) test --skip-build

# What would break on macOS, read from the sources on any platform in a second (also run by `make test`, in
# CLIPortabilityTests): Tests/Portability/portability.py, whose table says why each symbol differs and Darwin's way.
portability:
	python3 Tests/Portability/portability.py

# The main job in the dummy environment: no network, no configuration.
run: build
	"$$($(SWIFT) build --show-bin-path)/expense-log" --env dummy fetch --year 2024 --month 1
	"$$($(SWIFT) build --show-bin-path)/expense-log" --env dummy report 2024-01 -o "$${TMPDIR:-/tmp}/expense-log-2024-01.html"

install: deps
	$(SWIFT) build -c $(CONFIG) $(STATIC_FLAG)
	$(MAKE) install-files BIN="$$($(SWIFT) build -c $(CONFIG) $(STATIC_FLAG) --show-bin-path)/expense-log"

# Copies a built binary, the dummy fixtures it finds in ../share/expense-log, its manual page (generated by the
# binary from its command declarations: `man expense-log`) and its bash, zsh and fish completions, each where that
# shell looks for a package's own (bash-completion's completions/, zsh's site-functions, fish's vendor_completions.d).
MANDIR = $(PREFIX)/share/man/man1
BASHDIR = $(PREFIX)/share/bash-completion/completions
ZSHDIR = $(PREFIX)/share/zsh/site-functions
FISHDIR = $(PREFIX)/share/fish/vendor_completions.d
install-files:
	@test -n "$(BIN)" || { echo "install-files needs BIN=path/to/expense-log" >&2; exit 64; }
	install -d "$(BINDIR)" "$(SHAREDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 755 "$(BIN)" "$(BINDIR)/expense-log"
	if [ -n "$(STRIP)" ]; then strip "$(BINDIR)/expense-log"; fi
	"$(BIN)" --generate-manual > "$(MANDIR)/expense-log.1" && chmod 644 "$(MANDIR)/expense-log.1"
	"$(BIN)" completion bash > "$(BASHDIR)/expense-log" && chmod 644 "$(BASHDIR)/expense-log"
	"$(BIN)" completion zsh > "$(ZSHDIR)/_expense-log" && chmod 644 "$(ZSHDIR)/_expense-log"
	"$(BIN)" completion fish > "$(FISHDIR)/expense-log.fish" && chmod 644 "$(FISHDIR)/expense-log.fish"
	install -m 644 Resources/fetch.json Resources/register.json "$(SHAREDIR)/"
	install -d "$(SHAREDIR)/server" && install -m 644 Resources/server/Code.gs Resources/server/appsscript.json "$(SHAREDIR)/server/"

# A Debian package of the release binary (.build/expense-log_VERSION_ARCH.deb): the files `make install PREFIX=/usr`
# puts in place (binary, fixtures, man page, completions; zsh's where Debian's zsh reads a package's), libcurl as its one dependency besides the C library (the
# Swift runtime is linked in), for `apt install ./.build/expense-log_….deb`. Debian only (dpkg-deb).
# The C libraries the binary links (the C and C++ runtimes: the Swift runtime is linked in; the C library at least
# the version of the newest symbol it uses) and loads (libcurl, at its first request); libcurl4t64 is libcurl4's name
# from Debian 13 on. The certificates https needs are recommended, as curl recommends them.
DEB_DEPENDS = libc6 (>= $$(objdump -T .build/deb/usr/bin/expense-log | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -Vu | tail -n 1)), \
	libstdc++6, libgcc-s1, libcurl4 | libcurl4t64
DEB_VERSION = $(shell sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/ExpenseLogClient/ExpenseLogAPI.swift)
deb: deps
	@command -v dpkg-deb >/dev/null || { echo "error: make deb needs dpkg-deb (Debian's dpkg)" >&2; exit 1; }
	$(SWIFT) build -c release --static-swift-stdlib
	rm -rf .build/deb && mkdir -p .build/deb/DEBIAN
	$(MAKE) install-files PREFIX="$$PWD/.build/deb/usr" ZSHDIR="$$PWD/.build/deb/usr/share/zsh/vendor-completions" \
		BIN="$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)/expense-log"
	gzip -9n .build/deb/usr/share/man/man1/expense-log.1
	install -d .build/deb/usr/share/doc/expense-log
	printf '%s\n' "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" "Upstream-Name: expense-log" \
		"Source: https://github.com/expense-log/expense-log" "" "Files: *" "Copyright: the expense-log authors" \
		"License: none-declared" " The authors have not declared a license yet: all rights are reserved." \
		> .build/deb/usr/share/doc/expense-log/copyright
	{ echo "Package: expense-log"; echo "Version: $(DEB_VERSION)"; echo "Architecture: $$(dpkg --print-architecture)"; \
	  echo "Maintainer: expense-log <expense-log@users.noreply.github.com>"; \
	  echo "Installed-Size: $$(du -sk .build/deb/usr | cut -f1)"; \
	  echo "Depends: $(DEB_DEPENDS)"; echo "Recommends: ca-certificates"; echo "Section: utils"; echo "Priority: optional"; \
	  echo "Homepage: https://github.com/expense-log/expense-log"; \
	  echo "Description: household expense log (家計簿) kept in a Google Sheet, from the shell"; \
	  echo " Add what you paid, see a month or a year, import bank, card and wallet statements,"; \
	  echo " and work offline: writes wait in a queue until sync."; } > .build/deb/DEBIAN/control
	dpkg-deb --root-owner-group --build .build/deb ".build/expense-log_$(DEB_VERSION)_$$(dpkg --print-architecture).deb"

# Benchmarks against curl, jq and a plain Python script; not part of `make test`. Installs curl, jq, GNU time and
# libcurl's headers if missing, measures the binary `make install STATIC=1` installs (stripped, under .build/bench-install),
# and writes bench/results.md: once over http, once over https (every server with the tests' certificates).
# GNU time measures peak memory (`time -f %M`): /usr/bin/time on Linux (Debian's time package); on macOS, whose
# /usr/bin/time is BSD's, Homebrew's gnu-time, run as `gtime` (bench.py installs it with brew when missing). macOS has
# no static Swift runtime, so there the binary is linked as `make install` links it, dynamically.
# BENCH_FLAGS="--only import --rounds 3" narrows it; `python3 bench/bench.py --help` lists the flags.
BENCH_STATIC_FLAG = $(if $(filter Darwin,$(shell uname -s)),,--static-swift-stdlib)
bench: deps
	python3 bench/bench.py --install-tools
	$(SWIFT) build -c release $(BENCH_STATIC_FLAG)
	rm -rf .build/bench-install
	$(MAKE) install-files PREFIX="$$PWD/.build/bench-install" \
		BIN="$$($(SWIFT) build -c release $(BENCH_STATIC_FLAG) --show-bin-path)/expense-log"
	python3 bench/bench.py --binary .build/bench-install/bin/expense-log $(BENCH_FLAGS)
	python3 bench/bench.py --https --binary .build/bench-install/bin/expense-log $(BENCH_FLAGS)

clean:
	rm -rf .build
