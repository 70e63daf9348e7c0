/**
 * The search page, drawn from Pagefind's JS API (`pagefind.js`: options, init, mergeIndex, filters, search,
 * result.data()) rather than Pagefind's prebuilt UI. Every string that comes from the index (titles, excerpts,
 * filter values, metadata) is set with `textContent` or as an attribute value, never parsed as HTML: the prebuilt UI
 * put filter values into `innerHTML`, so a workspace path holding `<meta http-equiv="refresh">` navigated the page
 * (issue 10). Excerpts are built from the page text (src/lib/search/excerpt.ts), not from Pagefind's HTML excerpt.
 *
 * The index is sharded (src/integrations/pagefind.ts): `data-bundles` lists the Pagefind bundles to search, each
 * `{ bundle, baseUrl }` (the bundle folder's URL, and the base its result URLs are relative to): this site's shards
 * that hold sessions, or in a joined site every part's (src/lib/join/). The first is searched as the main index,
 * the others are merged into it at once (`mergeIndex`, each with its own base), so results and filters come back
 * as one. Pagefind starts as soon as the page runs; with a `?q=`, that query's chunks are
 * preloaded in every shard meanwhile and it is searched the moment the shards are merged. The query is kept in the
 * URL (`?q=`), so a reload or a shared link shows the same results. The filter values load when a filter group is
 * first opened (`FilterPanel`).
 */
import {
  afterHeading,
  contentWords,
  excerptParts,
  sectionRange,
  type ExcerptPart,
  type PageAnchor,
  type WordHit,
} from '../lib/search/excerpt.ts';
import {
  FILTER_ORDER,
  filterGroups,
  filterLabel,
  hasSelection,
  searchFilters,
  type FilterCounts,
  type FilterSelection,
  type FilterValueView,
} from '../lib/search/filters.ts';

/** The part of a loaded result Pagefind documents and this page reads. */
interface Fragment {
  url: string;
  content: string;
  word_count: number;
  weighted_locations: WordHit[];
  meta: Record<string, string | undefined>;
  filters: Record<string, string[] | undefined>;
  anchors: PageAnchor[];
  sub_results: { title: string; url: string; weighted_locations: WordHit[]; anchor?: PageAnchor }[];
}

interface SearchResponse {
  results: { id: string; data: () => Promise<Fragment> }[];
  filters: FilterCounts;
}

interface PagefindApi {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  mergeIndex(path: string, options: Record<string, unknown>): Promise<void>;
  filters(): Promise<FilterCounts>;
  preload(term: string, options?: Record<string, unknown>): Promise<void>;
  search(term: string | null, options?: Record<string, unknown>): Promise<SearchResponse | null>;
}

/** Results shown at once, and added by "More results". */
const PAGE_SIZE = 10;
/** Typing waits this long before a search (a query per keystroke would thrash the index). */
const DEBOUNCE_MS = 300;
/**
 * Shards are ranked apart and merged by score, so a shard without the exact word ranks its near matches as if
 * they were the best (a search for a word of one session listed other sessions first). A steep term-similarity
 * weight puts exact matches first whichever shard holds them.
 */
const RANKING = { termSimilarity: 40 };

/** An element with a class and text content (never markup). */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Excerpt parts as text nodes and `<mark>` elements. */
function excerptNode(parts: ExcerptPart[], className: string): HTMLParagraphElement {
  const p = el('p', className);
  for (const part of parts) p.append(part.hit ? el('mark', undefined, part.text) : document.createTextNode(part.text));
  return p;
}

/** A same-origin link target, or undefined (a result URL is Pagefind's, built from the page's path). */
function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url, window.location.href);
    return parsed.origin === window.location.origin ? parsed.pathname + parsed.search + parsed.hash : undefined;
  } catch {
    return undefined;
  }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** The line under a result's title: when, and where it belongs (product, workspace, model). */
function resultFacts(fragment: Fragment): string {
  const facts: string[] = [];
  const date = fragment.meta.date;
  if (date && !Number.isNaN(Date.parse(date))) facts.push(new Date(date).toISOString().slice(0, 16).replace('T', ' ') + ' UTC');
  for (const group of ['product', 'workspace', 'model']) {
    const values = fragment.filters[group];
    if (values && values.length > 0) facts.push(values.join(', '));
  }
  return facts.join(' · ');
}

/** Words for the turn builder's outcome statuses (`outcome-status` meta); anything else is not shown. */
const OUTCOME_WORDS: Record<string, string> = {
  ok: 'Done',
  failed: 'Failed',
  running: 'Still running',
  cancelled: 'Cancelled',
  unknown: 'No result',
};

/** How the step ended (`outcome` meta), as a line: red only for a failure, amber outside the sandbox. */
function outcomeNode(fragment: Fragment): HTMLParagraphElement | undefined {
  const line = fragment.meta.outcome?.trim();
  if (!line) return undefined;
  const status = fragment.meta['outcome-status'] ?? '';
  const word = Object.hasOwn(OUTCOME_WORDS, status) ? OUTCOME_WORDS[status] : undefined;
  const outside = fragment.filters.outcome?.includes('outside sandbox') ?? false;
  const p = el('p', 'search-result-outcome');
  if (status === 'failed') p.classList.add('is-failed');
  if (word) p.append(el('span', 'search-result-outcome-status', word), document.createTextNode(' · '));
  p.append(document.createTextNode(line));
  if (outside) p.append(document.createTextNode(' · '), el('span', 'search-result-outcome-bypass', 'outside the sandbox'));
  return p;
}

/** One result: title link, facts, outcome, and an excerpt from the page's best-matching section. */
function resultNode(fragment: Fragment): HTMLLIElement {
  const li = el('li', 'search-result');
  const heading = el('h2', 'search-result-title');
  const href = safeHref(fragment.url);
  const title = fragment.meta.title?.trim() || fragment.url;
  if (href) {
    const link = el('a', 'search-result-link', title);
    link.href = href;
    heading.append(link);
  } else heading.textContent = title;
  li.append(heading);
  const facts = resultFacts(fragment);
  if (facts) li.append(el('p', 'search-result-facts', facts));
  const outcome = outcomeNode(fragment);
  if (outcome) li.append(outcome);
  // One excerpt per result, from the section with the most hit score: step pages have a heading per block, and
  // an excerpt per section repeated the same words under "Output", "Call 1" and the like.
  const words = contentWords(fragment.content);
  const best = fragment.sub_results
    .map((sub) => ({ sub, score: sub.weighted_locations.reduce((n, h) => n + h.balanced_score, 0) }))
    .sort((a, b) => b.score - a.score)[0]?.sub;
  const [start, to] = best ? sectionRange(fragment.anchors, words.length, best.anchor) : [0, words.length];
  const sectionHref = best?.anchor ? safeHref(best.url) : undefined;
  const sectionTitle = best?.anchor ? best.title.trim() : '';
  const from = sectionHref && sectionTitle ? Math.min(afterHeading(words, start, sectionTitle), to) : start;
  const hits = best ? best.weighted_locations : fragment.weighted_locations;
  const excerpt = excerptNode(excerptParts(words, hits, from, to), 'search-result-excerpt');
  if (sectionHref && sectionTitle) {
    // Where on the page the words are, as a link to that section.
    const link = el('a', 'search-result-section-link', sectionTitle);
    link.href = sectionHref;
    excerpt.prepend(link, document.createTextNode(' — '));
  }
  li.append(excerpt);
  return li;
}

/**
 * The filter panels: one `<details>` per group, a checkbox per value; counts updated in place after each search.
 *
 * The values load when a group is first opened, not on page load. `filters()` fetches every shard's filter chunks
 * (each page is listed under each of its ~8 groups): ~16 bytes a page, ~470 KB and ~470 ms a 28k-page bundle, so
 * ~20 MB over the 42 bundles of a 1M-step archive, which every visit to the search page paid for before its first
 * query. Once loaded, every query also counts every value (a 72 ms query took 275–468 ms, BENCHMARKS.md). Most
 * searches tick nothing. The groups themselves are known (`FILTER_ORDER`), so the panel is drawn at once, closed.
 */
class FilterPanel {
  readonly selection: FilterSelection = new Map();
  private readonly boxes = new Map<string, { input: HTMLInputElement; count: HTMLElement; item: HTMLElement }>();
  private readonly lists = new Map<string, HTMLUListElement>();
  private readonly notes = new Map<string, HTMLParagraphElement>();
  private readonly host: HTMLElement;
  private available: FilterCounts = {};
  private loading?: Promise<void>;
  private readonly load: () => Promise<FilterCounts>;
  private readonly onChange: () => void;
  private readonly onLoaded: () => Promise<void>;
  /** The values are drawn (`data-loaded` is set on the host after `onLoaded` too, for tests to wait on). */
  private drawn = false;

  /** `load` fetches every group's values (`filters()`); `onLoaded` runs once they are drawn. */
  constructor(host: HTMLElement, load: () => Promise<FilterCounts>, onChange: () => void, onLoaded: () => Promise<void>) {
    this.host = host;
    this.load = load;
    this.onChange = onChange;
    this.onLoaded = onLoaded;
    for (const name of FILTER_ORDER) this.group(name);
  }

  /** A group's closed `<details>`, its values drawn once loaded. */
  private group(name: string): void {
    const details = el('details', 'search-filter');
    details.dataset.filter = name;
    details.append(el('summary', undefined, filterLabel(name)));
    const fieldset = el('fieldset');
    fieldset.append(el('legend', 'sr-only', filterLabel(name)));
    const note = el('p', 'search-filter-note muted small', 'Loading values…');
    const list = el('ul');
    fieldset.append(note, list);
    details.append(fieldset);
    details.addEventListener('toggle', () => {
      if (details.open) void this.ensureLoaded();
    });
    this.lists.set(name, list);
    this.notes.set(name, note);
    this.host.append(details);
  }

  /** Load and draw every group's values, once. */
  ensureLoaded(): Promise<void> {
    this.loading ??= this.load().then(
      async (available) => {
        this.available = available;
        for (const group of filterGroups(available, available, this.selection)) {
          if (!this.lists.has(group.name)) this.group(group.name);
          const list = this.lists.get(group.name);
          for (const value of group.values) list?.append(this.valueItem(group.name, value));
          this.notes.get(group.name)?.remove();
          this.notes.delete(group.name);
        }
        for (const [name, note] of this.notes) note.textContent = `No ${filterLabel(name).toLowerCase()} in this archive.`;
        this.drawn = true;
        await this.onLoaded();
        this.host.dataset.loaded = 'true';
      },
      () => {
        for (const note of this.notes.values()) note.textContent = 'The filter values could not be loaded. Close and open the group to try again.';
        this.loading = undefined;
      },
    );
    return this.loading;
  }

  private key(group: string, value: string): string {
    return JSON.stringify([group, value]);
  }

  private valueItem(group: string, view: FilterValueView): HTMLLIElement {
    const item = el('li');
    const label = el('label');
    const input = el('input');
    input.type = 'checkbox';
    input.value = view.value;
    input.addEventListener('change', () => {
      const values = this.selection.get(group) ?? new Set<string>();
      if (input.checked) values.add(view.value);
      else values.delete(view.value);
      this.selection.set(group, values);
      this.onChange();
    });
    const count = el('span', 'search-filter-count', view.count.toLocaleString('en-US'));
    label.append(input, el('span', 'search-filter-value', view.value), count);
    item.append(label);
    this.boxes.set(this.key(group, view.value), { input, count, item });
    return item;
  }

  /** Show the counts of the last search (or of the whole index: `undefined`), most first; values with none are dimmed. */
  update(current: FilterCounts = this.available): void {
    if (!this.drawn) return;
    for (const group of filterGroups(this.available, current, this.selection)) {
      const list = this.lists.get(group.name);
      if (!list) continue;
      for (const value of group.values) {
        const box = this.boxes.get(this.key(group.name, value.value));
        if (!box) continue;
        box.count.textContent = value.count.toLocaleString('en-US');
        box.item.classList.toggle('is-empty', value.count === 0 && !value.selected);
        list.append(box.item);
      }
    }
  }
}

/** The page's controller: one query at a time, the newest wins. */
class SearchPage {
  private panel?: FilterPanel;
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private results: SearchResponse['results'] = [];
  private shown = 0;
  private readonly pagefind: PagefindApi;
  private readonly input: HTMLInputElement;
  private readonly status: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly more: HTMLButtonElement;

  constructor(pagefind: PagefindApi, input: HTMLInputElement, status: HTMLElement, list: HTMLOListElement, more: HTMLButtonElement) {
    this.pagefind = pagefind;
    this.input = input;
    this.status = status;
    this.list = list;
    this.more = more;
    this.more.addEventListener('click', () => void this.showMore(this.generation));
  }

  async start(filterHost: HTMLElement): Promise<void> {
    // Counts come with a search only for the filter chunks loaded: once the values are in, the shown search runs
    // again (its index chunks are loaded by then) so the panel counts its results.
    this.panel = new FilterPanel(
      filterHost,
      () => this.pagefind.filters(),
      () => this.run(0),
      () => this.recount(),
    );
    this.input.addEventListener('input', () => this.run(DEBOUNCE_MS));
    this.input.form?.addEventListener('submit', (event) => {
      event.preventDefault();
      this.run(0);
    });
    if (this.term() || hasSelection(this.panel.selection)) await this.search();
    else this.idle();
  }

  /** Counts for the panel once its values are in: the shown query again, its results left as they are. */
  private async recount(): Promise<void> {
    const term = this.term();
    const selection = this.panel?.selection ?? new Map();
    if (!term && !hasSelection(selection)) {
      this.panel?.update();
      return;
    }
    const generation = this.generation;
    const found = await this.find(term, selection);
    if (generation === this.generation && found) this.panel?.update(found.filters);
  }

  /** Pagefind's search for `term` and what is ticked. A null term with filters lists every page the filters match. */
  private find(term: string, selection: FilterSelection): Promise<SearchResponse | null> {
    return this.pagefind.search(term || null, { filters: searchFilters(selection) });
  }

  private term(): string {
    return this.input.value.trim();
  }

  private idle(): void {
    this.panel?.update();
    this.list.replaceChildren();
    this.more.hidden = true;
    this.status.textContent = 'Type to search every session, or tick a filter.';
  }

  /** Search after `delay` ms (typing), dropping any search still waiting. */
  private run(delay: number): void {
    clearTimeout(this.timer);
    const term = this.term();
    if (term && delay > 0) this.pagefind.preload(term).catch(() => {});
    this.timer = setTimeout(() => void this.search(), delay);
  }

  private async search(): Promise<void> {
    const generation = ++this.generation;
    const term = this.term();
    const url = new URL(window.location.href);
    if (term) url.searchParams.set('q', term);
    else url.searchParams.delete('q');
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
    const selection = this.panel?.selection ?? new Map();
    if (!term && !hasSelection(selection)) {
      this.idle();
      return;
    }
    this.status.textContent = 'Searching…';
    const found = await this.find(term, selection);
    if (generation !== this.generation || !found) return;
    this.results = found.results;
    this.shown = 0;
    this.panel?.update(found.filters);
    this.list.replaceChildren();
    const n = found.results.length;
    const what = term ? ` for “${term}”` : '';
    const filtered = hasSelection(selection) ? ' with the ticked filters' : '';
    this.status.textContent = n === 0 ? `No results${what}${filtered}.` : `${plural(n, 'result')}${what}${filtered}.`;
    await this.showMore(generation);
  }

  private async showMore(generation: number): Promise<void> {
    const next = this.results.slice(this.shown, this.shown + PAGE_SIZE);
    this.shown += next.length;
    // One page at a time: a second click while fragments load would append the pages out of order.
    this.more.disabled = true;
    const fragments = await Promise.all(next.map((r) => r.data()));
    if (generation !== this.generation) return;
    this.more.disabled = false;
    this.list.append(...fragments.map(resultNode));
    this.more.hidden = this.shown >= this.results.length;
    if (!this.more.hidden) this.more.textContent = `More results (${plural(this.results.length - this.shown, 'more', 'more')})`;
  }
}

/** The bundles of `data-bundles` (see the module comment); none when it is missing or not a list of bundles. */
function searchBundles(attribute: string | undefined): { bundle: string; baseUrl: string }[] {
  try {
    const parsed: unknown = JSON.parse(attribute ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((b): b is { bundle: string; baseUrl: string } => typeof b?.bundle === 'string' && typeof b?.baseUrl === 'string');
  } catch {
    return [];
  }
}

const host = document.querySelector<HTMLElement>('[data-search]');
const input = document.querySelector<HTMLInputElement>('#search-input');
const status = document.querySelector<HTMLElement>('#search-status');
const list = document.querySelector<HTMLOListElement>('#search-results');
const more = document.querySelector<HTMLButtonElement>('#search-more');
const filterHost = document.querySelector<HTMLElement>('#search-filters');
if (host && input && status && list && more && filterHost) {
  const [first = { bundle: '/pagefind/', baseUrl: '/' }, ...rest] = searchBundles(host.dataset.bundles);
  const q = new URLSearchParams(window.location.search).get('q')?.trim() ?? '';
  input.value = q;
  status.textContent = 'Loading the search index…';
  import(/* @vite-ignore */ `${first.bundle}pagefind.js`)
    .then(async (pagefind: PagefindApi) => {
      await pagefind.options({ baseUrl: first.baseUrl, ranking: RANKING });
      const ready = Promise.all([
        pagefind.init(),
        ...rest.map((b) => pagefind.mergeIndex(b.bundle, { baseUrl: b.baseUrl, ranking: RANKING })),
      ]);
      if (q) pagefind.preload(q).catch(() => {});
      await ready;
      await new SearchPage(pagefind, input, status, list, more).start(filterHost);
    })
    .catch(() => {
      status.textContent = 'The search index could not be loaded. Serve this folder over http (npm run preview), not from file://.';
    });
}
