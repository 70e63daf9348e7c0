/**
 * `/sessions.json`: every session (id, product, created, title, model, steps, url, and what a joined site shows of
 * it: `SessionIndexEntry`), newest first, for tooling and for `ARCHIVE_JOIN`. A joined site lists its parts'
 * entries as they published them (their base and search bundle included), so a joined site can be joined again.
 */
import { allSessions } from '../lib/routes.ts';
import { sessionIndex } from '../lib/audit/export.ts';
import { currentJoin } from '../lib/join/current.ts';

export async function GET(): Promise<Response> {
  const joined = currentJoin();
  const entries = joined ? joined.sessions.map(({ partDir: _partDir, ...entry }) => entry) : sessionIndex(await allSessions());
  return new Response(JSON.stringify(entries, null, 2), {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}
