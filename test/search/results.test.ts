/**
 * How the search page lists results (src/lib/search/results.ts): a document's step hits are its sub-results under a
 * step heading, linked to the step pages, best first; documents group by session, a later page of results adding
 * to the sessions already listed.
 */
import { describe, expect, it } from 'vitest';
import { documentHref, groupBySession, stepHits, type FoundDocument } from '../../src/lib/search/results.ts';

const hit = (location: number, balanced_score: number) => ({ location, balanced_score, weight: 1 });
function doc(session: string, url: string, subs: { id?: string; title: string; score: number }[] = [], steps = '/sessions/x/steps/'): FoundDocument {
  return {
    url,
    meta: { title: `${session} › Turn 1`, turn: `${url}#turn`, steps },
    filters: { session: [session] },
    sub_results: subs.map((s, i) => ({
      title: s.title,
      url: `${url}#${s.id ?? ''}`,
      weighted_locations: [hit(i, s.score)],
      ...(s.id ? { anchor: { element: 'h2', id: s.id, text: s.title, location: i } } : {}),
    })),
  };
}

describe('stepHits', () => {
  it("lists a document's step sub-results, best first, each linked to its step page", () => {
    const found = doc('A', '/sessions/x/search/turn-1.html', [
      { title: 'Rate limiting', score: 9 },
      { id: 'step-3', title: 'step 3 · user request.', score: 1 },
      { id: 'step-12-1', title: 'step 12-1 · run_command npm test · exit 1', score: 5 },
    ]);
    expect(stepHits(found).map((h) => [h.key, h.title, h.href])).toEqual([
      ['12-1', 'step 12-1 · run_command npm test · exit 1', '/sessions/x/steps/12-1/'],
      ['3', 'step 3 · user request', '/sessions/x/steps/3/'],
    ]);
    expect(documentHref(found)).toBe('/sessions/x/search/turn-1.html#turn');
    // An artifact page has no step pages: no step hits, and its heading links to the page found.
    const artifact = { ...doc('A', '/sessions/x/artifacts/plan/', [{ id: 'h', title: 'Plan', score: 1 }]), meta: { title: 'A › plan' } };
    expect(stepHits(artifact)).toEqual([]);
    expect(documentHref(artifact)).toBe('/sessions/x/artifacts/plan/');
  });
});

describe('groupBySession', () => {
  it('groups in the order of each session’s best document, and adds a later page to the groups already shown', () => {
    const groups = new Map();
    const first = groupBySession([doc('A', '/a1'), doc('B', '/b1'), doc('A', '/a2')], groups);
    expect(first.map((g) => [g.session, g.docs.map((d: FoundDocument) => d.url)])).toEqual([['A', ['/a1', '/a2']], ['B', ['/b1']]]);
    const second = groupBySession([doc('B', '/b2'), doc('C', '/c1')], groups);
    expect(second.map((g) => g.session)).toEqual(['C']);
    expect(groups.get('B').docs.map((d: FoundDocument) => d.url)).toEqual(['/b1', '/b2']);
  });
});
