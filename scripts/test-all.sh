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

echo "== other programs that read our records (crates/record/tests/other_tools.rs)"
# cshogi (PyPI) and tsshogi (npm) read back what our KIF/KI2/CSA/JKF writers produce.
# A tool is skipped (with a message) only when pip or npm itself is missing.
required_tools=""
if command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then
  if ! python3 -c 'import cshogi' >/dev/null 2>&1; then
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'cshogi==1.1.0'
  fi
  required_tools="cshogi"
else
  echo "SKIP: pip is not available, so cshogi cannot be installed: its acceptance check is skipped"
fi
if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
  (cd tools/other-tools && npm ci --no-audit --no-fund --loglevel=error)
  required_tools="${required_tools:+$required_tools,}tsshogi"
else
  echo "SKIP: npm is not available, so tsshogi cannot be installed: its acceptance check is skipped"
fi
export SHOGI_OTHER_TOOLS="$required_tools"

echo "== cargo test"
cargo test --workspace

echo "== web client (web/): build, unit tests, the committed bundle is up to date"
if command -v npm >/dev/null 2>&1; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error && npm run build && npm test)
  git diff --exit-code --stat -- web/dist || { echo "web/dist is stale: run 'npm run build' in web/ and commit it"; exit 1; }
else
  echo "SKIP: npm is not available: the web client is neither rebuilt nor tested"
fi

echo "== browser tests (Playwright driving Debian's chromium against shogi serve)"
if command -v npm >/dev/null 2>&1; then
  if ! command -v chromium >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    fi
  fi
  cargo build -q -p shogi-cli --profile test
  (cd web && SHOGI_BIN="$PWD/../target/debug/shogi" npm run test:e2e)
else
  echo "SKIP: npm is not available: browser tests skipped"
fi

echo "== a match through cshogi's runner (scripts/cshogi-match.sh)"
if python3 -c 'import cshogi' >/dev/null 2>&1; then
  cargo build -q -p shogi-cli --profile test
  SHOGI_BIN="$PWD/target/debug/shogi" scripts/cshogi-match.sh 4
else
  echo "SKIP: cshogi is not installed (pip unavailable), so the cshogi match is skipped"
fi
