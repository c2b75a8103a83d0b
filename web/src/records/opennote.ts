// A note one screen leaves for the review board of a record it opens (the
// import page: "already in the archive"), shown once when that record's
// board opens.

const notes = new Map<string, string>();

/** Leaves `text` for the next review board of record `id`. */
export function leaveNote(id: string, text: string): void {
  notes.set(id, text);
}

/** The note left for record `id`, if any (taken: it is shown once). */
export function takeNote(id: string): string | null {
  const text = notes.get(id) ?? null;
  notes.delete(id);
  return text;
}
