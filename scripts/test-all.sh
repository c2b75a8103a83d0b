#!/usr/bin/env bash
# The one command that runs every test of the project on a fresh machine.
# It installs what the tests need, then checks formatting and lints and runs
# the whole test suite. Exit status 0 means everything passed.
set -euo pipefail
cd "$(dirname "$0")/.."
# One clean build, no incremental caches: they double the target folder's size
# and a fresh clone gains nothing from them.
export CARGO_INCREMENTAL=0

echo "== toolchain"
cargo --version
rustup component add rustfmt clippy >/dev/null 2>&1 || true

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings

echo "== other programs: readers of our records (crates/record/tests/other_tools.rs), a CSA client (crates/server/tests/csa.rs)"
# cshogi (PyPI) and tsshogi (npm) read back what our KIF/KI2/CSA/JKF writers produce.
# A tool is skipped (with a message) only when pip or npm itself is missing.
required_tools=""
if command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then
  if ! python3 -c 'import cshogi' >/dev/null 2>&1; then
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'cshogi==1.1.0'
  fi
  # python-shogi's CSA client plays a game on our CSA server (crates/server/tests/csa.rs).
  if ! python3 -c 'import shogi.CSA' >/dev/null 2>&1; then
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'python-shogi==1.1.1'
  fi
  required_tools="cshogi,python-shogi"
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

# The passes below run the test programs and the `shogi` binary this build
# made, as they are: `cargo test -p shogi-server` or `cargo build -p
# shogi-cli` would resolve the dependencies' features for one package
# instead of the workspace and build sqlx, axum, the server and every test
# program a second (and third) time.
test_programs() { # PACKAGE [TEST ...]: "DIR<TAB>EXECUTABLE" of each, built already
  cargo test --workspace --no-run --message-format=json 2>/dev/null | python3 -c '
import json, os, sys
package, names = sys.argv[1], sys.argv[2:]
for line in sys.stdin:
    m = json.loads(line)
    t = m.get("target", {})
    if m.get("reason") != "compiler-artifact" or not m.get("executable") or not m.get("profile", {}).get("test"):
        continue
    pid = m["package_id"]  # "path+file:///...#shogi-server@0.1.0" (or, older, "shogi-server 0.1.0 (...)")
    if "#" + package + "@" not in pid and not pid.startswith(package + " "):
        continue
    if t.get("kind") == ["test"] and (not names or t["name"] in names) or (t.get("kind") == ["lib"] and not names):
        print(os.path.dirname(m["manifest_path"]) + "\t" + m["executable"])
' "$@"
}
run_programs() { # PACKAGE [TEST ...]: runs them, failing on the first that fails
  local listed dir exe n=0
  listed="$(test_programs "$@")"
  while IFS=$'\t' read -r dir exe; do
    [ -n "$exe" ] || continue
    echo "     Running $(basename "$exe")"
    (cd "$dir" && "$exe" -q) || return 1
    n=$((n + 1))
  done <<<"$listed"
  [ "$n" -gt 0 ] || { echo "FAIL: no test program of $1 found"; return 1; }
}

echo "== server tests again on PostgreSQL (each test on a fresh database of a throwaway server)"
# The same server and CLI tests with SHOGI_TEST_POSTGRES set: tests/common
# creates a database per test on this server and drops it after. Debian's
# postgresql is installed if missing; when it cannot be installed or started
# this step FAILS (nothing is skipped silently).
pg_bin=""
find_pg() {
  for d in /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then pg_bin="$d"; fi
  done
}
find_pg
if [ -z "$pg_bin" ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null || true
  find_pg
fi
if [ -z "$pg_bin" ]; then
  echo "FAIL: PostgreSQL is not installed and could not be installed (apt-get install postgresql)"
  exit 1
fi
pg_dir="$(mktemp -d /tmp/shogi-pg.XXXXXX)"
# PostgreSQL refuses to run as root: as root, the cluster belongs to the
# 'postgres' user the Debian package creates.
as_pg() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$pg_dir"
  as_pg() { runuser -u postgres -- "$@"; }
fi
pg_port=""
for p in $(seq 54320 54399); do
  if ! (echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then pg_port="$p"; break; fi
done
[ -n "$pg_port" ] || { echo "FAIL: no free local port for PostgreSQL"; exit 1; }
stop_pg() {
  as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$pg_dir"
}
trap stop_pg EXIT
as_pg "$pg_bin/initdb" -D "$pg_dir/data" -U shogi --auth=trust >"$pg_dir/initdb.log" 2>&1 \
  || { cat "$pg_dir/initdb.log"; echo "FAIL: initdb could not create a PostgreSQL cluster"; exit 1; }
# fsync off: a throwaway cluster; the tests' durability is SQLite's and the
# server's, not this disk's.
as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w \
  -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
  || { cat "$pg_dir/log"; echo "FAIL: PostgreSQL did not start"; exit 1; }
pg_started=$SECONDS
export SHOGI_TEST_POSTGRES="postgres://shogi@127.0.0.1:$pg_port/postgres"
run_programs shogi-server
run_programs shogi-cli cli user durability crash_endings instances
unset SHOGI_TEST_POSTGRES
echo "PostgreSQL pass: $((SECONDS - pg_started)) s"
stop_pg
trap - EXIT

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
  # target/debug/shogi: the binary `cargo test --workspace` built for the CLI's tests.
  (cd web && SHOGI_BIN="$PWD/../target/debug/shogi" npm run test:e2e)
else
  echo "SKIP: npm is not available: browser tests skipped"
fi

echo "== a match through cshogi's runner (scripts/cshogi-match.sh)"
if python3 -c 'import cshogi' >/dev/null 2>&1; then
  SHOGI_BIN="$PWD/target/debug/shogi" scripts/cshogi-match.sh 4
else
  echo "SKIP: cshogi is not installed (pip unavailable), so the cshogi match is skipped"
fi
