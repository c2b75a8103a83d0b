// The move tree of the review board: the main line, and variations hanging
// off the moves they replace (as the server's record JSON sends them), with
// a cursor that names a line by the branches taken from the main line.

export interface TreeNode {
  usi: string;
  time?: number | null;
  comments: string[];
  /** Lines replacing this move: each line's first move is played instead of `usi`. */
  variations: TreeNode[][];
}

/** The branches taken from the main line: `[index in the line so far, variation number]`, indices increasing. */
export type Path = [number, number][];

/** A place in the tree: the line named by `path`, after `ply` of its moves. */
export interface Cursor {
  path: Path;
  ply: number;
}

export function newNode(usi: string): TreeNode {
  return { usi, time: null, comments: [], variations: [] };
}

/** A copy of nodes as read from JSON, with missing lists filled in. */
export function fromJson(nodes: Partial<TreeNode>[]): TreeNode[] {
  return nodes.map((n) => ({
    usi: String(n.usi ?? ''),
    time: n.time ?? null,
    comments: [...(n.comments ?? [])],
    variations: (n.variations ?? []).map((l) => fromJson(l)),
  }));
}

/**
 * The line a path names: the main line with each branch taken in turn.
 * `tail` is the array holding the line's last segment (the main line itself
 * when `path` is empty); a branch that does not exist ends the walk.
 */
export function resolve(main: TreeNode[], path: Path): { line: TreeNode[]; tail: TreeNode[]; path: Path } {
  let line = main;
  let tail = main;
  const taken: Path = [];
  for (const [i, v] of path) {
    const branch = line[i]?.variations[v];
    if (!branch) break;
    line = line.slice(0, i).concat(branch);
    tail = branch;
    taken.push([i, v]);
  }
  return { line, tail, path: taken };
}

/**
 * Plays `usi` at `at`: follows the line if it continues with that move, else
 * the move that line replaced or one of its variations, else adds a variation
 * (or extends the line when `at` is the end of a variation, or of the main
 * line unless `mainFixed`). Returns the new cursor and whether the tree
 * changed, or null at the end of a fixed main line (a game played here,
 * which cannot grow).
 */
export function play(
  main: TreeNode[],
  at: Cursor,
  usi: string,
  mainFixed = true,
): { cursor: Cursor; added: boolean } | null {
  const { line, tail, path } = resolve(main, at.path);
  const ply = Math.max(0, Math.min(at.ply, line.length));
  if (ply < line.length) {
    if (line[ply].usi === usi) return { cursor: { path, ply: ply + 1 }, added: false };
    // The branches taken before this move name the node whose alternatives these are.
    const base = path.filter(([j]) => j < ply);
    const node = resolve(main, base).line[ply];
    if (node.usi === usi) return { cursor: { path: base, ply: ply + 1 }, added: false };
    const known = node.variations.findIndex((l) => l[0]?.usi === usi);
    if (known >= 0) return { cursor: { path: [...base, [ply, known]], ply: ply + 1 }, added: false };
    node.variations.push([newNode(usi)]);
    return { cursor: { path: [...base, [ply, node.variations.length - 1]], ply: ply + 1 }, added: true };
  }
  if (path.length === 0 && mainFixed) return null;
  tail.push(newNode(usi));
  return { cursor: { path, ply: ply + 1 }, added: true };
}

/**
 * Removes the variation the cursor is in (the last branch of its path);
 * returns the cursor on the move it replaced, or null on the main line.
 */
export function removeVariation(main: TreeNode[], at: Cursor): Cursor | null {
  const { path } = resolve(main, at.path);
  const last = path[path.length - 1];
  if (!last) return null;
  const parent = path.slice(0, -1);
  const [i, v] = last;
  resolve(main, parent).line[i].variations.splice(v, 1);
  return { path: parent, ply: i };
}

/** The node shown at a cursor (the move that led there), or undefined at the start. */
export function nodeAt(main: TreeNode[], at: Cursor): TreeNode | undefined {
  return at.ply > 0 ? resolve(main, at.path).line[at.ply - 1] : undefined;
}

export function pathKey(path: Path): string {
  return path.map(([i, v]) => `${i}.${v}`).join(',');
}

export function parsePathKey(key: string): Path {
  if (!key) return [];
  return key.split(',').map((p) => {
    const [i, v] = p.split('.').map(Number);
    return [i, v] as [number, number];
  });
}

/** The tree without times, as `PUT /api/games/{id}/annotations` takes it. */
export function toJson(nodes: TreeNode[]): { usi: string; comments: string[]; variations: unknown[] }[] {
  return nodes.map((n) => ({ usi: n.usi, comments: n.comments, variations: n.variations.map((l) => toJson(l)) }));
}

/**
 * Makes the variation the cursor is in (the last branch of its path) the
 * line it branches from, from its first move on: the replaced moves become
 * its first variation, the other alternatives stay alternatives. With
 * `mainFixed`, a variation of the main line itself cannot be promoted (a game
 * played here keeps its moves): null then, and on the main line. Returns the
 * cursor on the same position in the reordered tree.
 */
export function promoteVariation(main: TreeNode[], at: Cursor, mainFixed = false): Cursor | null {
  const { path } = resolve(main, at.path);
  const last = path[path.length - 1];
  if (!last) return null;
  const parent = path.slice(0, -1);
  if (mainFixed && parent.length === 0) return null;
  const [i, v] = last;
  // The array that holds move i of the parent line: the segment of the last branch at or before it.
  let arr = main;
  let idx = i;
  for (let k = 0; k < parent.length && parent[k][0] <= i; k++) {
    arr = resolve(main, parent.slice(0, k + 1)).tail;
    idx = i - parent[k][0];
  }
  const replaced = arr.splice(idx);
  const old = replaced[0];
  const promoted = old.variations.splice(v, 1)[0];
  const others = old.variations;
  old.variations = [];
  promoted[0].variations = [replaced, ...others, ...promoted[0].variations];
  arr.push(...promoted);
  return { path: parent, ply: at.ply };
}

/** Whether the tree's main line is `moves` (the record's own). */
export function mainLineIs(main: TreeNode[], moves: string[]): boolean {
  return main.length === moves.length && main.every((n, k) => n.usi === moves[k]);
}
