/**
 * `/sessions/<id>/search/<doc>.html`: one search document of a session (a turn, a part of a long turn, or an
 * artifact), the page Pagefind indexes for it (`lib/search/document.ts` decides what it holds). Built from the
 * session read at render time and the turn builder; every link given by `lib/urls.ts`.
 */
import type { APIRoute } from 'astro';
import { searchDocumentPaths, sessionTree, stepsOf, type SearchDocumentProps } from '../../../../lib/routes.ts';
import { getSessionDetail, turnsOf } from '../../../../lib/archive/detail.ts';
import { pageOfTurn, type PageStart } from '../../../../lib/conversation/pages.ts';
import { artifactSearchDocument, searchDocument, searchDocumentHtml } from '../../../../lib/search/document.ts';
import { saneIso } from '../../../../lib/brain/dates.ts';
import { urls } from '../../../../lib/urls.ts';
import type { StepRow } from '../../../../lib/archive/schemas.ts';
import type { Step } from '../../../../lib/brain/types.ts';

export const getStaticPaths = () => searchDocumentPaths();

/** The last session's rows and bodies by key: its documents render one after another. */
let last: { id: string; rows: Map<string, StepRow>; steps: Map<string, Step> } | undefined;

const html = (body: string) => new Response(body, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });

export const GET: APIRoute = async ({ props }) => {
  const input = props as SearchDocumentProps;
  const s = input.session;
  const detail = await getSessionDetail(s.ref, s.redacted);
  const subagent = (await sessionTree()).nodes.get(s.id)?.parent !== undefined;
  if (input.artifact) {
    const row = input.artifact;
    const artifact = detail.artifacts.find((a) => a.name === row.name);
    const updatedAt = saneIso(row.updatedAt);
    return html(
      searchDocumentHtml(
        artifactSearchDocument({
          session: s,
          subagent,
          name: row.name,
          ...(artifact?.metadata?.summary ?? row.summary ? { summary: artifact?.metadata?.summary ?? row.summary } : {}),
          ...(updatedAt ? { updatedAt } : {}),
          ...(artifact?.text !== undefined ? { text: artifact.text } : {}),
          pageUrl: urls.artifact(s.id, row.slug),
        }),
      ),
    );
  }
  const { group, first } = input;
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
    subagent,
    group,
    rows: last.rows,
    steps: last.steps,
    turn,
    first,
    turnUrl: turn ? urls.turn(s.id, turn.number, pageOfTurn(starts, index)) : urls.session(s.id),
    stepsUrl: urls.step(s.id, '_').replace(/_\/$/, ''),
  });
  return html(searchDocumentHtml(doc));
};
