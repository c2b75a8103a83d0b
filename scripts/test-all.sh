#!/usr/bin/env bash
# The one command that runs every test of the project on a fresh machine.
# It installs what the tests need, then checks formatting and lints and runs
# the whole test suite. Exit status 0 means everything passed.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== toolchain"
cargo --version
rustup component add rustfmt clippy >/dev/null 2>&1 || true

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo test"
cargo test --workspace
