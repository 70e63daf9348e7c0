/**
 * The site's conversation markup made fit for the single-file export (`/sessions/<uuid>/export.html`): the same
 * HTML the session page draws (one renderer, `components/export/ExportTurn.astro` over `TurnView`), with every link
 * pointing inside the file or shown as what it is. A file read from `file://` or sent by mail has no site around it:
 *
 * - a link to a step, a call or a turn of this session whose anchor the file holds → `#<anchor>`;
 * - any other link of the site (a task log, an artifact, a step the file does not hold) → the text, with its site
 *   URL as a tooltip (`<span class="site-link">`);
 * - a link out of the site (a URL in the model's Markdown) → the text, followed by the URL drawn by the stylesheet
 *   from `data-url` (the file references nothing, so nothing can be fetched or followed by accident);
 * - an image → its alternative text (the export's policy loads no image);
 * - the search index's attributes (`data-pagefind-*`) are dropped: the file is not indexed.
 *
 * Only markup is touched: in the site's HTML every `<` of a transcript string is escaped (`&lt;`), so each tag
 * matched here is one the components wrote. Pure: no `astro:*` import.
 */
import { escapeHtml } from '../render/escape.ts';

/** One start tag with its attributes (quoted values may hold `>`). */
const START_TAG = /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'=<>`/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/g;
/** A link and what it holds (links do not nest in HTML). */
const LINK = /<a\b((?:\s+[^\s"'=<>`/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*>([\s\S]*?)<\/a>/g;
const ATTR = /\s+([^\s"'=<>`/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** The attributes of a start tag, in order (values as written, entities kept). */
function attributes(source: string): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  for (const m of source.matchAll(ATTR)) out.push([m[1] as string, m[2] ?? m[3] ?? m[4]]);
  return out;
}

function unescapeAttr(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Every `id` the markup gives an element (the anchors a link inside the file may point to). */
export function anchorIds(html: string): Set<string> {
  const ids = new Set<string>();
  for (const m of html.matchAll(START_TAG)) for (const [name, value] of attributes(m[2] ?? '')) if (name === 'id' && value) ids.add(unescapeAttr(value));
  return ids;
}

/** What the export needs to know to point a link inside the file. */
export interface ExportLinkContext {
  /** The site's URL of a step of this session (`urls.step(id, key)`), to read the key back. */
  stepUrl: (key: string) => string;
  /** The site's base path with its trailing slash (`urls.home()`): links under it are the site's. */
  siteBase: string;
  /** Anchors the export file holds (`anchorIds` over everything it writes). */
  anchors: ReadonlySet<string>;
}

const KEY_MARK = 'exportstepkeymark';

/** The anchor inside the file a site link lands on, or undefined when the file does not hold it. */
export function localTarget(href: string, context: ExportLinkContext): string | undefined {
  const hash = href.indexOf('#');
  if (hash >= 0) {
    const anchor = decodeURIComponent(href.slice(hash + 1));
    if (context.anchors.has(anchor)) return anchor;
  }
  const path = hash >= 0 ? href.slice(0, hash) : href;
  // The step URL's shape, read off the URL module with a key no step has (a URL encodes the key, so a plain word).
  const [before, after] = context.stepUrl(KEY_MARK).split(KEY_MARK) as [string, string];
  if (path.startsWith(before) && path.endsWith(after)) {
    const key = decodeURIComponent(path.slice(before.length, path.length - after.length));
    if (!key.includes('/') && context.anchors.has(`step-${key}`)) return `step-${key}`;
  }
  return undefined;
}

/** The site's markup of a conversation, made self-contained as the module comment says. */
export function exportMarkup(html: string, context: ExportLinkContext): string {
  const linked = html.replace(LINK, (_whole, attrSource: string, inner: string) => {
    const attrs = attributes(attrSource);
    const hrefRaw = attrs.find(([n]) => n === 'href')?.[1];
    const kept = attrs.filter(([n]) => n === 'class' || n === 'title' || n === 'id' || n === 'lang');
    const rest = kept.map(([n, v]) => (v === undefined ? ` ${n}` : ` ${n}="${v}"`)).join('');
    if (hrefRaw === undefined) return `<span${rest}>${inner}</span>`;
    const href = unescapeAttr(hrefRaw);
    if (href.startsWith('#')) return context.anchors.has(decodeURIComponent(href.slice(1))) ? `<a href="${escapeHtml(href)}"${rest}>${inner}</a>` : `<span${rest}>${inner}</span>`;
    const local = localTarget(href, context);
    if (local !== undefined) return `<a href="#${escapeHtml(encodeURIComponent(local))}"${rest}>${inner}</a>`;
    if (href.startsWith(context.siteBase) || href.startsWith('/')) {
      const title = attrs.some(([n]) => n === 'title') ? '' : ` title="${escapeHtml(`on the archive site: ${href}`)}"`;
      return `<span class="site-link"${title}${rest.replace(/^ class="([^"]*)"/, '')}>${inner}</span>`;
    }
    return `<span class="ext-link" data-url="${escapeHtml(href)}"${rest.replace(/ class="[^"]*"/, '')}>${inner}</span>`;
  });
  return linked.replace(START_TAG, (tag, name: string, attrSource: string, selfClose: string) => {
    if (name.toLowerCase() === 'img') {
      const alt = attributes(attrSource).find(([n]) => n === 'alt')?.[1];
      return `<span class="img-alt">[image${alt ? `: ${alt}` : ''}]</span>`;
    }
    if (!/\sdata-pagefind-|\s(?:src|srcset|loading)=/i.test(attrSource)) return tag;
    const kept = attributes(attrSource).filter(([n]) => !/^data-pagefind-/i.test(n) && !/^(?:src|srcset|loading)$/i.test(n));
    return `<${name}${kept.map(([n, v]) => (v === undefined ? ` ${n}` : ` ${n}="${v}"`)).join('')}${selfClose ? ' /' : ''}>`;
  });
}
