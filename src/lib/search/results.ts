/**
 * How the search page lists what Pagefind found (issue 23): a result is a search document, a turn of a session
 * (`search/document.ts`) or an artifact page; its step hits are the document's sub-results whose anchor is a step
 * heading (`step-<key>`), each linked to its step page. Results are grouped by session in the order Pagefind ranked
 * them: a session's best document is shown with its step hits, the session's other documents under "N more in this
 * session". Pure: no DOM, unit-tested; the page (`src/scripts/search-page.ts`) draws it as text.
 */
import type { PageAnchor, WordHit } from './excerpt.ts';

/** A sub-result as Pagefind returns it. */
export interface SubResult {
  title: string;
  url: string;
  weighted_locations: WordHit[];
  anchor?: PageAnchor;
}

/** The part of a loaded result this module reads. */
export interface FoundDocument {
  url: string;
  meta: Record<string, string | undefined>;
  filters: Record<string, string[] | undefined>;
  sub_results: SubResult[];
}

/** A step a document matched on: its heading, its page, and how well it matched. */
export interface StepHit {
  key: string;
  /** The step's heading: `step 38 · run_command npm test · exit 1`. */
  title: string;
  href: string;
  score: number;
  sub: SubResult;
}

/** The anchor id of a step's heading in a search document. */
const STEP_ANCHOR = /^step-(.+)$/;

const score = (sub: SubResult): number => sub.weighted_locations.reduce((n, h) => n + h.balanced_score, 0);

/**
 * A document's step hits, best first: its sub-results under a step heading, each linked to the step's page
 * (`meta.steps` + key). A document without step pages (an artifact) has none.
 */
export function stepHits(doc: FoundDocument): StepHit[] {
  const base = doc.meta.steps;
  if (!base) return [];
  const hits: StepHit[] = [];
  for (const sub of doc.sub_results) {
    const m = sub.anchor ? STEP_ANCHOR.exec(sub.anchor.id) : null;
    if (!m?.[1]) continue;
    hits.push({ key: m[1], title: sub.title.trim().replace(/\.$/, ''), href: `${base}${encodeURIComponent(m[1])}/`, score: score(sub), sub });
  }
  return hits.sort((a, b) => b.score - a.score);
}

/** Where a document's heading links: the turn in the conversation (`meta.turn`), else the page found. */
export function documentHref(doc: FoundDocument): string {
  return doc.meta.turn || doc.url;
}

/** The session a document belongs to (its `session` filter value), or its URL when it names none. */
export function sessionOf(doc: FoundDocument): string {
  return doc.filters.session?.[0] ?? doc.meta.session ?? doc.url;
}

/** Documents of one session, in the order found; the first is the session's best. */
export interface SessionGroup<T> {
  session: string;
  docs: T[];
}

/**
 * Group documents by session, sessions in the order of their best document, documents in the order found. `into`
 * is the grouping so far (a later page of results adds to the sessions already shown); the groups it gained are
 * returned apart, in order.
 */
export function groupBySession<T extends FoundDocument>(docs: readonly T[], into: Map<string, SessionGroup<T>> = new Map()): SessionGroup<T>[] {
  const added: SessionGroup<T>[] = [];
  for (const doc of docs) {
    const session = sessionOf(doc);
    const group = into.get(session);
    if (group) group.docs.push(doc);
    else {
      const created = { session, docs: [doc] };
      into.set(session, created);
      added.push(created);
    }
  }
  return added;
}
