// The explorer's part of the protocol (docs/PROTOCOL.md): the moves and
// games of a position (`GET /api/explorer`), the game search
// (`GET /api/search`), the collections (`GET`/`POST /api/collections`) and
// the import of records into one, whose progress streams back as JSON lines.

import { ApiError, request } from './api';
import { problemText, type ServerError } from './problem';

/** Wins, draws and games counted over games that ended. */
export interface Outcomes {
  games: number;
  sente_wins: number;
  gote_wins: number;
  draws: number;
}

/** A move played from the position, with its games' outcomes. */
export interface ExplorerMove extends Outcomes {
  usi: string;
  /** The mean rating of its rated players (`null`: none was rated). */
  average_rating: number | null;
  /** `YYYY-MM-DD`, or `null` without a date. */
  last_played: string | null;
}

/** A game of a collection as the explorer and the search list it. */
export interface ListedGame {
  id: string;
  collection: string | null;
  sente: string | null;
  gote: string | null;
  sente_rating: number | null;
  gote_rating: number | null;
  result: 'sente' | 'gote' | 'draw' | null;
  date: string | null;
  time_class: string | null;
  handicap: string | null;
  event: string | null;
  plies: number;
  /** Where the game reached the position asked about, and the move played there. */
  ply?: number;
  usi?: string | null;
}

/** `GET /api/explorer`. */
export interface ExplorerAnswer {
  sfen: string;
  total: number;
  ended: Outcomes;
  moves: ExplorerMove[];
  games: ListedGame[];
  collections: string[];
}

/** The filters the explorer and the search share (empty: not used). */
export interface GameFilter {
  collection: string;
  time_class: string;
  min_rating: string;
  max_rating: string;
  since: string;
  until: string;
}

export const NO_FILTER: GameFilter = {
  collection: '',
  time_class: '',
  min_rating: '',
  max_rating: '',
  since: '',
  until: '',
};

/** A collection as `GET /api/collections` lists it. */
export interface Collection {
  name: string;
  visibility: 'public' | 'private';
  tournament: string | null;
  games: number;
  /** Whether the reader may import games into it. */
  can_import: boolean;
}

/** One line of an import's progress. */
export interface ImportProgress {
  files: number;
  done: number;
  added: number;
  duplicates: number;
  unreadable: {
    file: string;
    /** Why, in English. */
    problem: string;
    /** Why, as a code: the record reader's reasons, `empty_file`, `too_large` or `unreadable_file`. */
    reason?: string;
    /** The text that does not read. */
    token?: string;
    line?: number | null;
    column?: number | null;
  }[];
  bytes: number;
  moves: number;
  finished: boolean;
  /** Set when the import stopped on the server's side. */
  error?: string;
  message?: string;
}

/** The query of `params`, leaving out the empty ones. */
export function query(params: Record<string, string>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v.trim()) q.set(k, v.trim());
  return q.toString();
}

export function explore(sfen: string, filter: GameFilter, limit = 10): Promise<ExplorerAnswer> {
  return request('GET', `/api/explorer?${query({ sfen, ...filter, limit: String(limit) })}`);
}

export function searchGames(params: Record<string, string>): Promise<{ games: ListedGame[]; more: boolean }> {
  return request('GET', `/api/search?${query(params)}`);
}

export async function collections(): Promise<Collection[]> {
  return (await request<{ collections: Collection[] }>('GET', '/api/collections')).collections;
}

export function createCollection(name: string, visibility: 'public' | 'private'): Promise<Collection> {
  return request('POST', '/api/collections', JSON.stringify({ name, visibility }), true);
}

/** What {@link importRecords} reports while it runs. */
export interface ImportWatcher {
  /** Bytes of the body sent so far. */
  sent(loaded: number, total: number): void;
  /** A progress line of the server. */
  progress(p: ImportProgress): void;
}

/**
 * Sends `file` into collection `name` and reports the upload's progress, then
 * each line the server streams back; resolves with the last line.
 */
export function importRecords(name: string, file: Blob, watch: ImportWatcher): Promise<ImportProgress> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let read = 0;
    let last: ImportProgress | null = null;
    const lines = () => {
      if (xhr.status !== 200) return;
      const text = xhr.responseText;
      let end = text.indexOf('\n', read);
      while (end >= 0) {
        const line = text.slice(read, end).trim();
        read = end + 1;
        if (line) {
          try {
            last = JSON.parse(line) as ImportProgress;
            watch.progress(last);
          } catch {
            // a line cut short: the next event reads it whole
          }
        }
        end = text.indexOf('\n', read);
      }
    };
    xhr.open('POST', `/api/collections/${encodeURIComponent(name)}/import`);
    xhr.upload.addEventListener('progress', (e) => watch.sent(e.loaded, e.lengthComputable ? e.total : file.size));
    xhr.addEventListener('progress', lines);
    xhr.addEventListener('load', () => {
      if (xhr.status !== 200) {
        let err: ServerError = {};
        try {
          err = JSON.parse(xhr.responseText) as ServerError;
        } catch {
          err = {};
        }
        const fallback = `${xhr.status} ${xhr.statusText}`;
        reject(new ApiError(xhr.status, problemText(err, fallback), typeof err.code === 'string' ? err.code : null));
        return;
      }
      lines();
      if (last) resolve(last);
      else reject(new Error(xhr.statusText || 'no answer'));
    });
    xhr.addEventListener('error', () => reject(new Error(xhr.statusText || 'network error')));
    xhr.send(file);
  });
}
