/**
 * What Pagefind is given of a built page: its `<title>` and its `data-pagefind-body` article with every
 * `data-pagefind-ignore` element cut out — the words Pagefind would index, without the markup it would parse only to
 * drop. A step page's highlighted code, diffs and raw records are about half its bytes, and Pagefind's time grows
 * with what it parses. The page on disk is untouched; the index comes out the same (test/site/search-document.test.ts
 * compares every fragment of an index built both ways).
 *
 * A tag scanner, not an HTML parser, is enough because the markup is ours: every transcript string is escaped
 * (text and attribute values alike), so `<` only ever starts one of our own tags. When the tags do not balance as
 * expected the page is given whole, as before.
 */

/** The article Pagefind indexes on session, step and artifact pages. */
const BODY_OPEN = '<article data-pagefind-body';

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>/g;
/** Elements with no closing tag. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** `data-pagefind-ignore` as an attribute of the tag (bare or `="index"`; `="all"` is never used by the site). */
const IGNORE_ATTR = /\sdata-pagefind-ignore(?:="index")?(?=[\s>/])/;

/** `html` with every element carrying `data-pagefind-ignore` removed; undefined when its tags do not balance. */
export function withoutIgnored(html: string): string | undefined {
  let out = '';
  let copyFrom = 0;
  let depth = 0;
  // Elements named by their opening tags, to check that each closing tag closes the element it should.
  const open: string[] = [];
  for (const match of html.matchAll(TAG)) {
    const [tag, closing, rawName] = match as unknown as [string, string, string];
    const name = rawName.toLowerCase();
    const at = match.index ?? 0;
    if (VOID.has(name) || tag.endsWith('/>')) {
      if (depth === 0 && IGNORE_ATTR.test(tag)) {
        out += html.slice(copyFrom, at);
        copyFrom = at + tag.length;
      }
      continue;
    }
    if (closing) {
      if (open.pop() !== name) return undefined;
      if (depth > 0 && open.length < depth) {
        depth = 0;
        copyFrom = at + tag.length;
      }
      continue;
    }
    open.push(name);
    if (depth === 0 && IGNORE_ATTR.test(tag)) {
      out += html.slice(copyFrom, at);
      depth = open.length;
    }
  }
  if (depth > 0 || open.length > 0) return undefined;
  return out + html.slice(copyFrom);
}

/**
 * The document to index for a built page, or undefined for a page with no search body (Pagefind drops those once
 * any page has one, so they are not sent at all).
 */
export function searchDocument(html: string): string | undefined {
  const start = html.indexOf(BODY_OPEN);
  if (start < 0) return undefined;
  const end = html.indexOf('</main>', start);
  if (end < 0) return html;
  const titleStart = html.indexOf('<title>');
  const titleEnd = titleStart >= 0 ? html.indexOf('</title>', titleStart) : -1;
  const title = titleEnd > titleStart && titleEnd < start ? html.slice(titleStart, titleEnd + '</title>'.length) : '';
  const body = html.slice(start, end);
  const kept = withoutIgnored(body);
  if (kept === undefined) return html;
  return `<!DOCTYPE html><html lang="en"><head>${title}</head><body>${kept}</body></html>`;
}
