#!/usr/bin/env bash
# A match of two USI engines over the CSA server protocol: starts
# `shogi serve --csa-port` on a temporary SQLite file and free ports, makes
# two program accounts, runs one `shogi csa-client` bridge per engine for N
# games (the server draws the colours of each game) and prints the tally
# from the bridges' lines (docs/CSA.md, "Our engine as a client").
#
# Usage: scripts/csa-match.sh [--games N] [--game NAME] [--opponent PATH]
#            [--option NAME=VALUE]... [--opponent-option NAME=VALUE]...
#            [--margin-ms MS]
#   --games N          games (default 2)
#   --game NAME        the CSA game name, which sets the clock (default
#                      csa-match-0-2: 2 s a move; csa-match-60-1F: 60 s + 1 s
#                      a move, Fischer)
#   --opponent PATH    the second engine (default: ours again); for a
#                      YaneuraOu build without --opponent-option, the options
#                      of ../shared/engines/README.md (one thread, no book,
#                      no network delay)
#   --option           a USI option for our engine (repeatable)
#   --opponent-option  a USI option for the opponent (repeatable)
#   --margin-ms MS     both bridges' safety margin (default theirs, 1000)
# SHOGI_BIN picks the build (default target/release/shogi). Exit status 0
# when both bridges finished every game and agree on every result.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shogi=${SHOGI_BIN:-$here/../target/release/shogi}
games=2
game=csa-match-0-2
opponent=""
ours_options=()
their_options=()
margin=()
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2; shift 2 ;;
    --game) game=$2; shift 2 ;;
    --opponent) opponent=$2; shift 2 ;;
    --option) ours_options+=(--option "$2"); shift 2 ;;
    --opponent-option) their_options+=(--option "$2"); shift 2 ;;
    --margin-ms) margin=(--margin-ms "$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "csa-match: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ ! -x "$shogi" ]; then
  echo "csa-match: no $shogi: build it (cargo build --release) or set SHOGI_BIN" >&2
  exit 2
fi

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT PIPE TERM # and so through cleanup
db=$work/shogi.db

# Account names: 2-24 letters, digits, _ or -.
ours=shogi-ours
engine_b=()
if [ -n "$opponent" ]; then
  theirs=$(basename "$opponent" | tr -c 'A-Za-z0-9_\n-' '-' | cut -c1-24)
  [ "${#theirs}" -ge 2 ] && [ "$theirs" != "$ours" ] || theirs=opponent
  engine_b=(--engine "$opponent")
  if [ "${#their_options[@]}" -eq 0 ]; then
    case "$(basename "$opponent")" in
      YaneuraOu*)
        for o in Threads=1 USI_Hash=256 BookFile=no_book NetworkDelay=0 NetworkDelay2=0 \
                 MinimumThinkingTime=100; do
          their_options+=(--option "$o")
        done ;;
    esac
  fi
else
  theirs=shogi-theirs
  their_options=("${ours_options[@]}")
fi
token() { "$shogi" user add "$1" --bot --db "$db" | sed -n 's/^CSA token.*: //p'; }
token_ours=$(token "$ours")
token_theirs=$(token "$theirs")

: >"$work/serve.log"
"$shogi" serve --port 0 --csa-port 0 --no-rate-limits --db "$db" 2>>"$work/serve.log" &
pids+=($!)
csa=""
for _ in $(seq 300); do
  csa=$(sed -n 's/.*CSA server protocol on //p' "$work/serve.log")
  [ -n "$csa" ] && break
  kill -0 "${pids[0]}" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$csa" ]; then
  echo "csa-match: the server did not start:" >&2; cat "$work/serve.log" >&2; exit 1
fi

echo "csa-match: $ours (ours) vs $theirs, $games games of $game on $csa"
"$shogi" csa-client --server "$csa" --id "$ours" --password "$game,$token_ours" \
  --games "$games" "${margin[@]}" "${ours_options[@]}" \
  > >(tee "$work/ours.out") 2>"$work/ours.err" &
pids+=($!)
pid_ours=$!
"$shogi" csa-client --server "$csa" --id "$theirs" --password "$game,$token_theirs" \
  --games "$games" "${margin[@]}" "${engine_b[@]}" "${their_options[@]}" \
  >"$work/theirs.out" 2>"$work/theirs.err" &
pids+=($!)
pid_theirs=$!
status=0
wait "$pid_ours" || status=$?
wait "$pid_theirs" || status=$?
sleep 0.2 # the last line through tee

# The tally from our bridge's lines:
#   game I/N <id>: <Sente> vs <Gote>: <outcome> <reason>, <moves> moves, as <colour>
tally() {
  awk -F': ' '/^game / {
      split($3, w, /[ ,]+/); outcome = w[1]; reason = w[2]
      n = split($3, c, " "); colour = c[n]
      games++
      if (outcome == "#WIN") { win++; side[colour, "w"]++ }
      else if (outcome == "#LOSE") { loss++; side[colour, "l"]++ }
      else if (outcome == "#DRAW" || outcome == "#CENSORED") { draw++; side[colour, "d"]++ }
      else unfinished++
      if (reason == "#TIME_UP" && outcome == "#LOSE") ours_time++
      if (reason == "#TIME_UP" && outcome == "#WIN") their_time++
    }
    END {
      printf "csa-match: %s: %d games, +%d -%d =%d, %d unfinished", who, games, win, loss, draw, unfinished
      printf " (as Sente +%d -%d =%d, as Gote +%d -%d =%d)\n", side["Sente","w"], side["Sente","l"], \
        side["Sente","d"], side["Gote","w"], side["Gote","l"], side["Gote","d"]
      printf "csa-match: time losses: %s %d, %s %d\n", who, ours_time, them, their_time
    }' who="$1" them="$2" "$3"
}
tally "$ours" "$theirs" "$work/ours.out"

# The other bridge must have seen the same games with the opposite results.
mirror() {
  awk -F': ' '/^game / {
      split($3, w, /[ ,]+/)
      o = w[1]; if (o == "#WIN") o = "#LOSE"; else if (o == "#LOSE") o = "#WIN"
      split($1, g, " "); print g[3], o, w[2]
    }' "$1"
}
plain() {
  awk -F': ' '/^game / { split($3, w, /[ ,]+/); split($1, g, " "); print g[3], w[1], w[2] }' "$1"
}
if [ "$(plain "$work/ours.out")" = "$(mirror "$work/theirs.out")" ] \
   && [ "$(grep -c '^game ' "$work/ours.out" || true)" -eq "$games" ]; then
  echo "csa-match: both bridges agree on all $games results"
else
  echo "csa-match: the bridges disagree or did not finish:"
  sed 's/^/  ours:   /' "$work/ours.out"; sed 's/^/  theirs: /' "$work/theirs.out"
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "csa-match: a bridge failed:" >&2
  sed 's/^/  ours:   /' "$work/ours.err" >&2
  sed 's/^/  theirs: /' "$work/theirs.err" >&2
  exit 1
fi
