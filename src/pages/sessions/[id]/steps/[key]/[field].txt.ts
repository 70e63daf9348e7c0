/**
 * `/sessions/<id>/steps/<key>/<field>.txt`: the whole text of a step field too long for its page (see
 * long-text.ts). Served as plain text, so whatever the transcript holds stays text.
 */
import type { APIRoute } from 'astro';
import { longTextPaths } from '../../../../../lib/routes.ts';
import { getSessionDetail, stepOf } from '../../../../../lib/archive/detail.ts';
import { stepFieldText, type LongField } from '../../../../../lib/archive/long-text.ts';
import type { SessionSummary, StepRow } from '../../../../../lib/archive/schemas.ts';

export const getStaticPaths = () => longTextPaths();

export const GET: APIRoute = async ({ props }) => {
  const { session, row, field } = props as { session: SessionSummary; row: StepRow; field: LongField };
  const step = stepOf(await getSessionDetail(session.ref, session.redacted), row.key);
  const text = step ? (stepFieldText(step, field) ?? '') : '';
  return new Response(text, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
