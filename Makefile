# Vedette: two commands.
#   make run   installs what is missing, builds in release, and starts Vedette on a sample scene
#   make test  installs what is missing, then checks formatting, lints and runs every test
#
# System packages come from .ci/system-deps.sh (Debian/Ubuntu; elsewhere it lists what to install).

CARGO ?= cargo
SCENE ?= samples/scenes/two-lines.json

.PHONY: run test deps toolchain build fmt-check clippy unit-tests

run: deps toolchain
	$(CARGO) build --release --locked -p vedette-ui
	./target/release/vedette measure $(SCENE)

test: deps toolchain fmt-check clippy unit-tests

deps:
	@bash .ci/system-deps.sh

# rustfmt and clippy ship with rustup's default profile; add them if this toolchain lacks them.
toolchain:
	@command -v $(CARGO) >/dev/null || { echo "vedette: Rust is not installed: see https://rustup.rs" >&2; exit 1; }
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

fmt-check:
	$(CARGO) fmt --all --check

clippy:
	$(CARGO) clippy --locked --workspace --all-targets -- -D warnings

unit-tests:
	$(CARGO) test --locked --workspace
