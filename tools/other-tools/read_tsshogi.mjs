// Reads records with tsshogi and prints what it found, one JSON object a line.
//
// Usage: node read_tsshogi.mjs LIST
// LIST holds one `FORMAT<TAB>PATH` a line (FORMAT: kif, ki2, csa, jkf; files are
// UTF-8). Each output line is {file, ok, sfen, moves (USI), end} or
// {file, ok: false, error}. Used by crates/record/tests/other_tools.rs.
import fs from "node:fs";
import { importCSA, importJKFString, importKI2, importKIF, Move } from "tsshogi";

const readers = { kif: importKIF, ki2: importKI2, csa: importCSA, jkf: importJKFString };

const list = fs.readFileSync(process.argv[2], "utf-8");
for (const line of list.split("\n")) {
  if (!line.trim()) continue;
  const [fmt, path] = line.split("\t");
  let out;
  try {
    const record = readers[fmt](fs.readFileSync(path, "utf-8"));
    if (record instanceof Error) throw record;
    const moves = [];
    let end = "";
    for (const node of record.moves) {
      if (node.move instanceof Move) moves.push(node.move.usi);
      else if (node.ply > 0) end = node.move.type === "any" ? node.move.name : node.move.type;
    }
    out = { file: path, ok: true, sfen: record.initialPosition.sfen, moves, end };
  } catch (e) {
    out = { file: path, ok: false, error: String(e && e.message ? e.message : e) };
  }
  console.log(JSON.stringify(out));
}
