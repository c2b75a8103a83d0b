#!/usr/bin/env bash
# A few quick games of our engine against itself through cshogi's match
# runner (python -m cshogi.cli) at 100 ms byoyomi. Fails on any illegal move,
# time loss, crash or error; prints the runner's summary.
# Usage: SHOGI_BIN=path/to/shogi scripts/cshogi-match.sh [GAMES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
games=${1:-4}
out=$(mktemp -d)
log="$out/match.log"
set +e
python3 -m cshogi.cli "$here/shogi-usi" "$here/shogi-usi" --name1 shogi-a --name2 shogi-b \
  --games "$games" --byoyomi 100 --draw 320 --csa "$out/csa" >"$log" 2>&1
status=$?
set -e
grep -E "^まで|勝率|won|draw|games" "$log" | tail -n 12 || true
if [ "$status" -ne 0 ]; then
  echo "cshogi match: the runner failed (exit $status)"; tail -n 30 "$log"; exit 1
fi
if grep -Eq "反則|切れ負け|Traceback|Error|Exception" "$log"; then
  echo "cshogi match: an illegal move, time loss or error:"; grep -E "反則|切れ負け|Traceback|Error|Exception" "$log"; exit 1
fi
finished=$(grep -c "^まで" "$log" || true)
if [ "$finished" -lt "$games" ]; then
  echo "cshogi match: only $finished of $games games finished"; tail -n 30 "$log"; exit 1
fi
echo "cshogi match: $finished games, no illegal move, time loss or crash"
