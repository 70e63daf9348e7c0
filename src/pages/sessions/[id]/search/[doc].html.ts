/**
 * `/sessions/<id>/search/<doc>.html`: one search document of a session (a turn, or a part of a long turn), the page
 * Pagefind indexes for it (`lib/search/document.ts` decides what it holds). Built from the session read at render
 * time and the turn builder; every link given by `lib/urls.ts`.
 */
import type { APIRoute } from 'astro';
import { searchDocumentPaths, sessionTree, stepsOf } from '../../../../lib/routes.ts';
import { getSessionDetail, turnsOf } from '../../../../lib/archive/detail.ts';
import { pageOfTurn, type PageStart } from '../../../../lib/conversation/pages.ts';
import { searchDocument, searchDocumentHtml, type DocumentGroup } from '../../../../lib/search/document.ts';
import { urls } from '../../../../lib/urls.ts';
import type { SessionSummary, StepRow } from '../../../../lib/archive/schemas.ts';
import type { Step } from '../../../../lib/brain/types.ts';

export const getStaticPaths = () => searchDocumentPaths();

/** The last session's rows and bodies by key: its documents render one after another. */
let last: { id: string; rows: Map<string, StepRow>; steps: Map<string, Step> } | undefined;

export const GET: APIRoute = async ({ props }) => {
  const { session: s, group, first } = props as { session: SessionSummary; group: DocumentGroup; first: boolean };
  const detail = await getSessionDetail(s.ref, s.redacted);
  if (last?.id !== s.id) {
    last = {
      id: s.id,
      rows: new Map((await stepsOf(s.id)).map((r) => [r.key, r])),
      steps: new Map(detail.steps.map((step) => [step.key, step])),
    };
  }
  const built = turnsOf(detail);
  const index = built.turns.findIndex((t) => t.number === group.turn);
  const turn = index >= 0 ? built.turns[index] : undefined;
  const starts: PageStart[] = s.conversationPages ?? [{ turn: 0, item: 0 }];
  const doc = searchDocument({
    session: s,
    subagent: (await sessionTree()).nodes.get(s.id)?.parent !== undefined,
    group,
    rows: last.rows,
    steps: last.steps,
    turn,
    first,
    turnUrl: turn ? urls.turn(s.id, turn.number, pageOfTurn(starts, index)) : urls.session(s.id),
    stepsUrl: urls.step(s.id, '_').replace(/_\/$/, ''),
  });
  return new Response(searchDocumentHtml(doc), { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
};
