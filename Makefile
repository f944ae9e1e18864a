# Vedette: two commands.
#   make run   installs what is missing, builds in release, and opens the app (on the demo table
#              when there is no camera); without a display it says how to run it headless
#   make test  installs what is missing, then checks formatting, lints and runs every test
#
# System packages come from .ci/system-deps.sh (Debian/Ubuntu; elsewhere it lists what to install).

CARGO ?= cargo

.PHONY: run test deps test-deps toolchain build fmt-check clippy unit-tests

run: deps toolchain
	$(CARGO) build --release --locked -p vedette-ui
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		./target/release/vedette; \
	else \
		echo "vedette: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the app window cannot open."; \
		echo "  On a desktop, run:              ./target/release/vedette"; \
		echo "  Headless, with a virtual screen: xvfb-run -a -s '-screen 0 1600x900x24' ./target/release/vedette"; \
		echo "  Or render the app to a picture:  ./target/release/vedette screenshot --demo app.png"; \
	fi

test: test-deps toolchain fmt-check clippy unit-tests

deps:
	@bash .ci/system-deps.sh

# The tests also drive a real browser (chromium) and a real MQTT broker (mosquitto).
test-deps:
	@bash .ci/system-deps.sh --tests

# rustfmt and clippy ship with rustup's default profile; add them if this toolchain lacks them.
toolchain:
	@command -v $(CARGO) >/dev/null || { echo "vedette: Rust is not installed: see https://rustup.rs" >&2; exit 1; }
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

fmt-check:
	$(CARGO) fmt --all --check

clippy:
	$(CARGO) clippy --locked --workspace --all-targets -- -D warnings

# NODEVICE_SELECT: Mesa's device-selection layer, which the in-process app tests load through
# wgpu, otherwise prints "XDG_RUNTIME_DIR is invalid or not set" without a desktop session.
# XDG_DATA_HOME: the games the tests' apps record, and the lenses they learn, are kept under
# target/, not among the user's own.
unit-tests:
	NODEVICE_SELECT=1 XDG_DATA_HOME=$(CURDIR)/target/test-data $(CARGO) test --locked --workspace
