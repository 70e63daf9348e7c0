/**
 * Markdown from transcripts and artifacts, rendered as GitHub does but safer for an offline archive:
 * raw HTML is dropped (remark-rehype without `allowDangerousHtml`), the tree is sanitised with GitHub's schema
 * (rehype-sanitize: only http(s)/mailto/relative links, only http(s)/relative images, no `javascript:`, `data:`,
 * `vbscript:`), and only then are links given `rel`, remote images turned into links (the site loads nothing from
 * elsewhere, so a CSP of `'self'` holds), and code fences replaced by highlighted HTML built from the fence's text.
 *
 * Before that, every link is decided by `links.ts`: a web link stays, a file of the session's own folder goes to
 * its archived copy, and any other target (a `file:///` path on the user's machine, a relative path the site does
 * not publish) becomes the link's words with the target as text: no `<a>` without an `href` leaves this module.
 * Transcript text (`asWritten`) keeps every backslash and `&…;` as typed: a model writing
 * `C:\Users\x\.gemini\…` meant the path, not a Markdown escape (every backslash before punctuation in the real
 * replies and thinking was a path, a JSON escape or LaTeX), while an artifact is a document and renders as one.
 */
import { createHash } from 'node:crypto';
import type { Element, ElementContent, Root, RootContent } from 'hast';
import type { Definition, Nodes as MdastNodes, Parent as MdastParent, PhrasingContent, Root as MdastRoot } from 'mdast';
import type { VFile } from 'vfile';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkCjkFriendly from 'remark-cjk-friendly';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type Processor } from 'unified';
import { cacheFile, readCacheFile, writeCacheFile } from './disk-cache.ts';
import { escapeHtml } from './escape.ts';
import { markdownParts } from './markdown-blocks.ts';
import { HIGHLIGHT_VERSION, highlightCode } from './highlight.ts';
import { linkOutcome, type LinkContext } from './links.ts';

/** Bump when the HTML this module emits changes; with the highlighter's version it keys the caches. */
// 3: a block past the bounds of markdown-blocks.ts is shown as written, with a note.
// 4: emphasis closes beside CJK text (remark-cjk-friendly).
export const MARKDOWN_VERSION = 'markdown-4';

/** GitHub's schema, minus the chat protocols nobody needs here; `class="language-*"` on code is kept for fences. */
const schema: SanitizeSchema = {
  ...defaultSchema,
  protocols: {
    ...defaultSchema.protocols,
    href: ['http', 'https', 'mailto'],
    src: ['http', 'https'],
    cite: ['http', 'https'],
    longDesc: ['http', 'https'],
  },
};

const LINK_REL = ['nofollow', 'noopener', 'noreferrer'];

/** True for a URL that would leave the site: a scheme (`https:`) or protocol-relative (`//host`). */
function isRemote(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//') || url.startsWith('\\\\');
}

function textOf(node: Element | ElementContent | RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function codeLanguage(code: Element): string {
  const classes = code.properties.className;
  const list: unknown[] = Array.isArray(classes) ? classes : typeof classes === 'string' ? String(classes).split(' ') : [];
  for (const c of list) if (typeof c === 'string' && c.startsWith('language-')) return c.slice('language-'.length);
  return 'text';
}

/** Replaces an element in its parent. `raw` nodes are only ever made here, from HTML built by `highlightCode`. */
type Replacement = ElementContent | { type: 'raw'; value: string };

/**
 * Runs after sanitising, so everything it sees is already safe; it only adds `rel`, demotes images, and swaps
 * `<pre><code>` for highlighted HTML generated from the code's *text*, never from HTML.
 */
function rehypeArchive() {
  return async (tree: Root): Promise<void> => {
    const jobs: Promise<void>[] = [];
    const visit = (parent: Root | Element, insideLink: boolean): void => {
      parent.children.forEach((child, i) => {
        if (child.type !== 'element') return;
        const replace = (node: Replacement): void => {
          (parent.children as unknown[])[i] = node;
        };
        if (child.tagName === 'pre') {
          const code = child.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
          if (code) {
            jobs.push(highlightCode(textOf(code), codeLanguage(code)).then((html) => replace({ type: 'raw', value: html })));
            return;
          }
        }
        if (child.tagName === 'a') {
          if (typeof child.properties.href !== 'string' || child.properties.href === '') {
            // remarkLinks decided every link the text wrote; one the sanitiser still emptied is shown as its words.
            replace({ type: 'element', tagName: 'span', properties: { className: ['md-link-text'] }, children: child.children });
            visit(child, insideLink);
            return;
          }
          child.properties.rel = LINK_REL;
        }
        if (child.tagName === 'img') {
          const src = typeof child.properties.src === 'string' ? child.properties.src : '';
          const alt = typeof child.properties.alt === 'string' ? child.properties.alt : '';
          if (!src) {
            // The sanitiser removed an unsafe source (data:, file:, javascript:): say an image was here.
            replace({
              type: 'element',
              tagName: 'span',
              properties: { className: ['md-image-removed'] },
              children: [{ type: 'text', value: `[image${alt ? `: ${alt}` : ''}]` }],
            });
            return;
          }
          if (isRemote(src)) {
            replace({
              type: 'element',
              // A link cannot hold a link: inside one, the image becomes its text.
              tagName: insideLink ? 'span' : 'a',
              properties: insideLink ? { className: ['md-remote-image'] } : { href: src, rel: LINK_REL, className: ['md-remote-image'] },
              children: [{ type: 'text', value: `[image${alt ? `: ${alt}` : ''}] ${src}` }],
            });
            return;
          }
          child.properties.loading = 'lazy';
        }
        visit(child, insideLink || child.tagName === 'a');
      });
    };
    visit(tree, false);
    await Promise.all(jobs);
  };
}

/** The link context a `renderMarkdown` call passed, carried on the file so one processor serves every session. */
interface RenderData {
  links?: LinkContext;
}

function plainText(node: MdastNodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as MdastNodes[]).map(plainText).join('');
  return '';
}

/**
 * Decides every link and image of the text (links.ts): web targets stay, session files point at their archived
 * copy, anything else becomes the words followed by ` (target)`. Reference links are resolved against their
 * definitions first, so `[plan][1]` is decided like `[plan](…)`.
 */
function remarkLinks() {
  return (tree: MdastRoot, file: VFile): void => {
    const links = (file.data as RenderData).links;
    const definitions = new Map<string, Definition>();
    const collect = (node: MdastNodes): void => {
      if (node.type === 'definition') definitions.set(node.identifier.toLowerCase(), node);
      if ('children' in node) for (const c of node.children as MdastNodes[]) collect(c);
    };
    collect(tree);
    const visit = (parent: MdastParent): void => {
      const out: MdastNodes[] = [];
      for (const child of parent.children as MdastNodes[]) {
        let node = child;
        if (node.type === 'linkReference' || node.type === 'imageReference') {
          const def = definitions.get(node.identifier.toLowerCase());
          if (def) {
            node =
              node.type === 'linkReference'
                ? { type: 'link', url: def.url, title: def.title ?? null, children: node.children, position: node.position }
                : { type: 'image', url: def.url, title: def.title ?? null, alt: node.alt ?? '', position: node.position };
          }
        }
        if (node.type === 'link') {
          const outcome = linkOutcome(node.url, links);
          if ('href' in outcome) {
            node.url = outcome.href;
          } else {
            visit(node);
            const words = plainText(node).trim();
            out.push(...(node.children as MdastNodes[]));
            if ('text' in outcome && words !== outcome.text.trim()) out.push({ type: 'text', value: `${words === '' ? '' : ' '}(${outcome.text})` });
            continue;
          }
        }
        if (node.type === 'image') {
          const remote = /^https?:/i.test(node.url.trim());
          const outcome = remote ? undefined : linkOutcome(node.url, links);
          if (outcome && 'href' in outcome) node.url = outcome.href;
          // An unsafe source is emptied: rehypeArchive says an image was here, without its target.
          else if (outcome && 'removed' in outcome) node.url = '';
          else if (outcome) {
            out.push({ type: 'text', value: `[image${node.alt ? `: ${node.alt}` : ''}] (${outcome.text})` } satisfies PhrasingContent);
            continue;
          }
        }
        if ('children' in node) visit(node as MdastParent);
        out.push(node);
      }
      (parent as { children: MdastNodes[] }).children = out;
    };
    visit(tree);
  };
}

/**
 * Keeps what the writer typed: a backslash escape still escapes (`\_x\_` is not emphasis) but keeps its backslash
 * in the text, and character references are not decoded (`&lt;` shows as `&lt;`). Code spans, link destinations and
 * hard line breaks (`\` at a line's end) are other constructs and work as before.
 */
function remarkAsWritten(this: Processor) {
  const data = this.data();
  (data.micromarkExtensions ??= []).push({ disable: { null: ['characterReference'] } });
  (data.fromMarkdownExtensions ??= []).push({
    exit: {
      // mdast-util-from-markdown's own handler for the escaped character, with the backslash put back.
      characterEscapeValue(token) {
        const tail = this.stack.pop() as { value: string; position?: { end: unknown } } | undefined;
        if (!tail) return;
        tail.value += `\\${this.sliceSerialize(token)}`;
        if (tail.position) tail.position.end = { line: token.end.line, column: token.end.column, offset: token.end.offset };
      },
    },
  });
}

const HEADING = /^h([1-6])$/;

/**
 * Moves the text's headings so its highest one becomes `<h{from}>` and the levels it uses follow one another
 * (a summary using `#` and `###` gets h3 and h4, capped at h6): a model reply or checkpoint summary sits under the
 * page's h1 and a block's h2, and its `# USER Objective` must not jump back to h1, nor skip levels it never used.
 */
function rehypeHeadingsFrom(from: number) {
  return (tree: Root): void => {
    const headings: Element[] = [];
    const visit = (parent: Root | Element): void => {
      for (const child of parent.children) {
        if (child.type !== 'element') continue;
        if (HEADING.test(child.tagName)) headings.push(child);
        visit(child);
      }
    };
    visit(tree);
    if (headings.length === 0) return;
    const used = [...new Set(headings.map((h) => Number(h.tagName.slice(1))))].sort((a, b) => a - b);
    // Ranked, then never deeper than one below the heading before it: a text that goes from `#` straight to
    // `#####` (a real checkpoint summary of ca4322d4) must not jump from h3 to h5 on the page.
    let previous = from - 1;
    for (const h of headings) {
      const level = Math.min(6, used.indexOf(Number(h.tagName.slice(1))) + from, previous + 1);
      h.tagName = `h${level}`;
      previous = level;
    }
  };
}

/** Built once per heading level and mode: unified processors are reusable, and building one per document is a measurable cost at 100k steps. */
const processors = new Map<string, ReturnType<typeof buildProcessor>>();

function buildProcessor(headingsFrom: number, asWritten: boolean) {
  // remark-cjk-friendly: CommonMark's flanking rule leaves `**보기**를` literal (a closing `**` after punctuation and
  // before a letter does not close), 191 times on the real sessions; the extension lets emphasis end beside Korean,
  // Japanese and Chinese text as its writers meant, and changes nothing between Latin words.
  const parser = unified().use(remarkParse).use(remarkGfm).use(remarkCjkFriendly);
  const base = (asWritten ? parser.use(remarkAsWritten) : parser)
    .use(remarkLinks)
    .use(remarkRehype, { allowDangerousHtml: false })
    .use(rehypeSanitize, schema)
    .use(rehypeArchive);
  // Raw nodes exist only from rehypeArchive (raw HTML in the source was dropped by remark-rehype, and the
  // sanitiser would have removed any other), so allowing them here lets only the highlighted blocks through.
  return (headingsFrom > 1 ? base.use(rehypeHeadingsFrom, headingsFrom) : base).use(rehypeStringify, { allowDangerousHtml: true }).freeze();
}

function processorFor(headingsFrom: number, asWritten: boolean): ReturnType<typeof buildProcessor> {
  const key = `${headingsFrom}${asWritten ? 'w' : ''}`;
  let p = processors.get(key);
  if (!p) {
    p = buildProcessor(headingsFrom, asWritten);
    processors.set(key, p);
  }
  return p;
}

/** How `renderMarkdown` renders one text. */
export interface MarkdownOptions {
  /** The level a `#` heading becomes (default 1, as written), for text shown under a page's headings. */
  headingsFrom?: number;
  /** Keep every backslash and character reference as typed (transcript text); artifacts leave it off. */
  asWritten?: boolean;
  /** The session whose files a link may name (links.ts); without it every non-web link becomes text. */
  links?: LinkContext;
}

/**
 * A block past the bounds of markdown-blocks.ts: its text as written, preformatted, after a note saying why (the
 * note is not indexed; the text is).
 */
function asWrittenBlock(text: string, why: string): string {
  return (
    `<p class="md-as-written-note small muted" data-pagefind-ignore>This block is shown as written, not rendered as Markdown: ${escapeHtml(why)}.</p>` +
    `<pre class="md-as-written">${escapeHtml(text.trimEnd())}</pre>`
  );
}

const cache = new Map<string, string>();
let cacheChars = 0;
const CACHE_CHARS = 32 * 1024 * 1024;

/** Empties the in-memory cache (for tests). */
export function clearMarkdownCache(): void {
  cache.clear();
  cacheChars = 0;
}

/**
 * `text` as safe HTML: GFM (tables, task lists, strikethrough, autolinks, footnotes), raw HTML removed, unsafe URLs
 * dropped, links `rel="nofollow noopener noreferrer"`, remote images shown as links, fenced code highlighted.
 * Results are cached by content hash in memory (bounded) and on disk under `$ARCHIVE_CACHE_DIR/markdown`.
 See `MarkdownOptions` for headings, backslashes and links.
 */
export async function renderMarkdown(text: string, options: MarkdownOptions = {}): Promise<string> {
  if (typeof text !== 'string' || text.trim() === '') return '';
  const headingsFrom = Math.max(1, Math.min(6, Math.trunc(options.headingsFrom ?? 1)));
  const asWritten = options.asWritten === true;
  const key = createHash('sha256')
    .update(`${MARKDOWN_VERSION}\0${HIGHLIGHT_VERSION}\0${headingsFrom > 1 ? `ranked2-h${headingsFrom}\0` : ''}${asWritten ? 'as-written\0' : ''}`)
    .update(`${options.links?.key ?? ''}\0`)
    .update(text)
    .digest('hex');
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const file = cacheFile('markdown', key, 'html');
  let html = await readCacheFile(file);
  if (html === undefined) {
    const processor = processorFor(headingsFrom, asWritten);
    const rendered: string[] = [];
    for (const part of markdownParts(text)) {
      rendered.push(
        part.markdown
          ? String(await processor.process({ value: part.text, data: { links: options.links } satisfies RenderData }))
          : asWrittenBlock(part.text, part.why),
      );
    }
    html = rendered.join('');
    await writeCacheFile(file, html);
  }
  if (html.length + text.length < CACHE_CHARS / 8) {
    // Two calls for the same text can both miss and both get here: count the entry once.
    const previous = cache.get(key);
    if (previous !== undefined) cacheChars -= previous.length;
    cache.set(key, html);
    cacheChars += html.length;
    for (const [oldKey, oldHtml] of cache) {
      if (cacheChars <= CACHE_CHARS) break;
      cache.delete(oldKey);
      cacheChars -= oldHtml.length;
    }
  }
  return html;
}
