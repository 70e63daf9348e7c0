/**
 * `/sessions/<id>/tasks/<name>.log.txt`: the whole (redacted) text of a task log too long for its page, served as
 * plain text so it is never markup.
 */
import type { APIRoute } from 'astro';
import { taskLogTextPaths } from '../../../../lib/routes.ts';
import { getSessionDetail } from '../../../../lib/archive/detail.ts';
import type { SessionSummary } from '../../../../lib/archive/schemas.ts';

export const getStaticPaths = () => taskLogTextPaths();

export const GET: APIRoute = async ({ props }) => {
  const { session, name } = props as { session: SessionSummary; name: string };
  const detail = await getSessionDetail(session.ref, session.redacted);
  const log = detail.taskLogs.find((t) => t.name === name);
  return new Response(log?.text ?? '', { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
