/** `/sessions.json`: every session (id, product, created, title, model, steps, url), newest first, for tooling. */
import { allSessions } from '../lib/routes.ts';
import { sessionIndex } from '../lib/audit/export.ts';

export async function GET(): Promise<Response> {
  return new Response(JSON.stringify(sessionIndex(await allSessions()), null, 2), {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}
