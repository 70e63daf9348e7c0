/**
 * The URL module is given the site's bases (issue 23): it reads no join state, and imports nothing of the site's
 * (the import `urls → join → audit export → urls` was a cycle).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { urls, useSessionBases } from '../../src/lib/urls.ts';

describe('urls: bases given, not looked up', () => {
  afterEach(() => useSessionBases(new Map()));

  it('imports no module of the site (no cycle through the join)', () => {
    const source = readFileSync(new URL('../../src/lib/urls.ts', import.meta.url), 'utf8');
    expect(source.match(/^import .* from .*$/gm) ?? []).toEqual([]);
  });

  it("builds a joined session's links under its part's base, and every other link under the site's", () => {
    useSessionBases(new Map([['abc', '/team-a/'], ['root', '/']]));
    expect(urls.session('abc')).toBe('/team-a/sessions/abc/');
    expect(urls.step('abc', '7')).toBe('/team-a/sessions/abc/steps/7/');
    expect(urls.upload('abc', '1.png')).toBe('/team-a/sessions/abc/uploads/1.png');
    expect(urls.session('root')).toBe('/sessions/root/');
    expect(urls.session('other')).toBe('/sessions/other/');
    expect(urls.search()).toBe('/search/');
  });
});
