/**
 * `/sessions/<id>/export.html`: the self-contained single-file export of a session (see `lib/audit/export.ts`): its
 * turns drawn by the session page's own components through Astro's container API (`astro/container`, checked on
 * Astro 7.3: it renders a component to a string inside the build), with the site's stylesheet inline.
 */
import type { APIRoute } from 'astro';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { archiveInfo, sessionPaths } from '../../../lib/routes.ts';
import { getSessionDetail, stepOf, turnsOf } from '../../../lib/archive/detail.ts';
import { renderSessionExport } from '../../../lib/audit/export.ts';
import { backgroundTasksOf } from '../../../lib/family/background-tasks.ts';
import { tasksByCall } from '../../../lib/conversation/view.ts';
import { noticeIdentity, noticeTotals } from '../../../lib/conversation/folds.ts';
import { diffCss } from '../../../lib/render/diff.ts';
import { highlightThemeCss } from '../../../lib/render/highlight.ts';
import type { SessionSummary } from '../../../lib/archive/schemas.ts';
import type { Turn } from '../../../lib/turns/types.ts';
import ExportTurn from '../../../components/export/ExportTurn.astro';
import globalCss from '../../../styles/global.css?raw';
import conversationCss from '../../../styles/conversation.css?raw';

export const getStaticPaths = () => sessionPaths();

let containerOnce: Promise<AstroContainer> | undefined;

export const GET: APIRoute = async ({ props }) => {
  const session = (props as { session: SessionSummary }).session;
  const detail = await getSessionDetail(session.ref, session.redacted);
  const built = turnsOf(detail);
  containerOnce ??= AstroContainer.create();
  const container = await containerOnce;
  const tasks = tasksByCall(backgroundTasksOf(detail, built.calls), built.calls);
  // A reminder repeated all session long is said once in the file, then named as the same (`folds.ts`), as on a page.
  const total = noticeTotals(built.turns, (position) => noticeIdentity(stepOf(detail, built.steps[position]?.key ?? '')?.content), (position) => built.steps[position]?.summary ?? '');
  const renderTurns = async (turns: readonly Turn[]): Promise<string[]> => {
    const notices = { total, seen: new Set<string>() };
    const out: string[] = [];
    for (const turn of turns) out.push(await container.renderToString(ExportTurn, { props: { sessionId: session.id, detail, built, turn, tasks, notices } }));
    return out;
  };
  const html = await renderSessionExport(session, detail, {
    isDemo: (await archiveInfo()).isDemo,
    turns: built,
    css: [globalCss, conversationCss, highlightThemeCss, diffCss].join('\n'),
    renderTurns,
  });
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
};
