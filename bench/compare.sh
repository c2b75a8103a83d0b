#!/usr/bin/env bash
# Whole-process perft timing of our `shogi perft` against rsshogi 1.7.3 and
# haitaka 0.3.2, all built with default release flags (no target-cpu).
# Prints the median of RUNS runs (default 5) of user+sys CPU seconds and of
# wall seconds for each workload, and the ratio to the faster competitor.
# Usage: bench/compare.sh [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
runs=${1:-5}
(cd "$root" && cargo build --release -q -p shogi-cli)
(cd "$here/compare" && cargo build --release -q)
ours="$root/target/release/shogi"
rs="$here/compare/target/release/rsshogi-perft"
hai="$here/compare/target/release/haitaka-perft"
pos207='l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1'

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() { # prints "cpu wall"
  # bash's own `time` to the millisecond (GNU time prints hundredths: a
  # 70 ms run, as the 207-move position's perft 3, read 0.07 or 0.08 s,
  # and its ratio to a 0.11 s one anywhere from 1.4x to 1.6x).
  local cpus=() walls=() TIMEFORMAT='%3U %3S %3R'
  for _ in $(seq "$runs"); do
    local out
    out=$( { time "$@" >/dev/null 2>&1; } 2>&1 | tail -1)
    cpus+=("$(echo "$out" | awk '{print $1+$2}')")
    walls+=("$(echo "$out" | awk '{print $3}')")
  done
  echo "$(printf '%s\n' "${cpus[@]}" | median) $(printf '%s\n' "${walls[@]}" | median)"
}

row() { # name, our args..., --, rs args..., --, hai args...
  local name=$1; shift
  local a=() b=() c=() which=0
  for x in "$@"; do
    if [ "$x" = "--" ]; then which=$((which + 1)); continue; fi
    case $which in 0) a+=("$x");; 1) b+=("$x");; 2) c+=("$x");; esac
  done
  read -r oc ow < <(measure "$ours" "${a[@]}")
  read -r rc rw < <(measure "$rs" "${b[@]}")
  read -r hc hw < <(measure "$hai" "${c[@]}")
  local best
  best=$(echo "$rc $hc" | awk '{print ($1<$2)?$1:$2}')
  printf '%-36s ours %7.3f s (%6.3f wall)  rsshogi %7.3f s (%6.3f)  haitaka %7.3f s (%6.3f)  speed-up %.2fx\n' \
    "$name" "$oc" "$ow" "$rc" "$rw" "$hc" "$hw" "$(echo "$best $oc" | awk '{print $1/$2}')"
}

echo "CPU seconds (user+sys), median of $runs runs; wall seconds in brackets"
row "startpos perft 5 (bulk)" perft 5 -- 5 startpos -- 5 startpos
row "startpos perft 6 (bulk)" perft 6 -- 6 startpos -- 6 startpos
row "startpos perft 5 (every leaf made)" perft 5 --no-bulk -- 5 startpos --no-bulk -- 5 startpos --no-bulk
row "207-move position perft 4 (bulk)" perft 4 --sfen "$pos207" -- 4 "$pos207" -- 4 "$pos207"
row "207-move position perft 3 (every leaf)" perft 3 --no-bulk --sfen "$pos207" -- 3 "$pos207" --no-bulk -- 3 "$pos207" --no-bulk
