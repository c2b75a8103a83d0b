"""Reads records with cshogi and prints what it found, one JSON object a line.

Usage: python3 read_cshogi.py LIST
LIST holds one `FORMAT<TAB>PATH` a line (FORMAT: kif, ki2, csa). Each output
line is {"file", "ok", "sfen", "moves" (USI), "endgame", "win"} or
{"file", "ok": false, "error"}. Used by crates/record/tests/other_tools.rs.
"""
import json
import sys

import cshogi
import cshogi.CSA
import cshogi.KI2
import cshogi.KIF


def read(fmt, path):
    if fmt == "kif":
        p = cshogi.KIF.Parser.parse_file(path)  # cp932 for .kif, UTF-8 for .kifu
        return p.sfen, p.moves, p.endgame, p.win
    if fmt == "ki2":
        p = cshogi.KI2.Parser.parse_file(path)  # always cp932
        return p.sfen, p.moves, p.endgame, p.win
    if fmt == "csa":
        p = cshogi.CSA.Parser.parse_file(path, encoding="utf-8")[0]
        return p.sfen, p.moves, p.endgame, p.win
    raise ValueError("unknown format " + fmt)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        jobs = [line.rstrip("\n").split("\t", 1) for line in f if line.strip()]
    for fmt, path in jobs:
        try:
            sfen, moves, endgame, win = read(fmt, path)
            out = {
                "file": path,
                "ok": True,
                "sfen": sfen,
                "moves": [cshogi.move_to_usi(m) for m in moves],
                "endgame": endgame or "",
                "win": win,
            }
        except Exception as e:  # report every failure, keep going
            out = {"file": path, "ok": False, "error": f"{type(e).__name__}: {e}"}
        print(json.dumps(out, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
