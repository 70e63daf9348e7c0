/** `/sessions/<id>/export.html`: the self-contained single-file export of a session (see `lib/audit/export.ts`). */
import type { APIRoute } from 'astro';
import { archiveInfo, sessionPaths } from '../../../lib/routes.ts';
import { getSessionDetail, turnsOf } from '../../../lib/archive/detail.ts';
import { renderSessionExport } from '../../../lib/audit/export.ts';
import type { SessionSummary } from '../../../lib/archive/schemas.ts';

export const getStaticPaths = () => sessionPaths();

export const GET: APIRoute = async ({ props }) => {
  const session = (props as { session: SessionSummary }).session;
  const detail = await getSessionDetail(session.ref, session.redacted);
  const html = renderSessionExport(session, detail, { isDemo: (await archiveInfo()).isDemo, turns: turnsOf(detail) });
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
};
