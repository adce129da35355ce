// Pages of the shared request log (request-log-pg.ts) from its batches: one row per key and flush (migration 0100,
// `request_log_batch`, the entries as a slab) and, read as batches of one entry, the rows of migration 0060's
// `request_log` (one per request, written by releases before session 15). The order is every entry's
// (time, batch id, position in the batch), descending — time first, as when every entry was a row ordered by
// (time, id) — so the nodes of a fleet flushing the same key at once interleave by time, not batch by batch. The
// cursor is the last entry given, `time.id.position`; a cursor an older release gave (`time.id.0`, id a row of
// `request_log`) means the same place, as ids of both tables come from one sequence.
//
// Why the merge by hand: a batch holds up to a flush's entries and batches of different nodes overlap in time, so
// no SQL order over batches is the entries' order. Batches are read newest `last_time` first; an entry is final once
// every batch that could hold a later one has been read (entries of unread batches are below the last read batch's
// (last_time, id)). The writer keeps a batch's span under SPAN_MS, which bounds the rows read past a cursor.
import type { Pg } from '../shared/pg.js';
import { EntrySlab } from './entry-slab.js';
import type { RequestLogEntry } from './request-log-entry.js';

/** the widest time span of one batch (request-log-pg.ts starts a new batch past it) */
export const SPAN_MS = 10_000;
/** batches read per query, doubled each time more are needed */
const FIRST_CHUNK = 4;
const MAX_CHUNK = 256;

/** an entry's place: time, batch id, position in the batch */
type Place = [number, number, number];
interface Item { place: Place; entry: RequestLogEntry }
interface BatchRow { id: number; last_time: number; entries: Buffer | null; entry: RequestLogEntry | null }

const before = (a: Place, b: Place): boolean => a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];
const newestFirst = (a: Item, b: Item): number => (before(a.place, b.place) ? 1 : before(b.place, a.place) ? -1 : 0);

const BATCHES = `
select id, last_time, entries, null::jsonb as entry from request_log_batch
 where key_id = $1 and last_time >= $2 and first_time <= $3 and last_time <= $3 + ${SPAN_MS} and (last_time, id) < ($4, $5)
union all
select id, time, null, entry from request_log
 where key_id = $1 and time >= $2 and time <= $3 and (time, id) < ($4, $5)
order by 2 desc, 1 desc limit $6`;

/** Newest first, `limit` entries at most, those before `cursor` (the `next` of the page before) and at or after `since`. */
export async function pageOf(pg: Pg, keyId: string, limit: number, cursor: string | undefined, since: number): Promise<{ entries: RequestLogEntry[]; next?: string }> {
  const from = parseCursor(cursor);
  let top: Item[] = [];
  let read: [number, number] = [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  for (let chunk = FIRST_CHUNK; ; chunk = Math.min(2 * chunk, MAX_CHUNK)) {
    const rows = (await pg.query<BatchRow>(BATCHES, [keyId, since, from[0], read[0], read[1], chunk])).rows;
    for (const row of rows) collect(row, from, since, top);
    top.sort(newestFirst);
    top = top.slice(0, limit + 1);
    const done = rows.length < chunk;
    if (!done) read = [rows[rows.length - 1]!.last_time, rows[rows.length - 1]!.id];
    // the top limit + 1 are final when nothing unread can come before the last of them
    if (done || (top.length > limit && !before(top[limit]!.place, [read[0], read[1], 0]))) break;
  }
  const page = top.slice(0, limit);
  const last = page[page.length - 1];
  return { entries: page.map((x) => x.entry), next: top.length > limit && last ? last.place.join('.') : undefined };
}

/** A batch's entries that belong to the page (before the cursor, not older than since) into `into`. */
function collect(row: BatchRow, from: Place, since: number, into: Item[]): void {
  const id = Number(row.id);
  if (row.entries === null) {
    const place: Place = [Number(row.last_time), id, 0];
    if (before(place, from) && place[0] >= since) into.push({ place, entry: row.entry! });
    return;
  }
  let i = 0;
  for (const entry of EntrySlab.entries(row.entries)) {
    const place: Place = [entry.time, id, i++];
    if (before(place, from) && entry.time >= since) into.push({ place, entry });
  }
}

function parseCursor(cursor: string | undefined): Place {
  if (cursor === undefined) return [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  const p = cursor.split('.').map(Number);
  if (p.length !== 3 || !p.every((n) => Number.isSafeInteger(n) && n >= 0)) throw new Error('bad cursor');
  return p as Place;
}
