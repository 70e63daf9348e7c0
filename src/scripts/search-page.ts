/**
 * The search page, drawn from Pagefind's JS API (`pagefind.js`: options, init, mergeIndex, filters, search,
 * result.data()) rather than Pagefind's prebuilt UI. Every string that comes from the index (titles, excerpts,
 * filter values, metadata) is set with `textContent` or as an attribute value, never parsed as HTML: the prebuilt UI
 * put filter values into `innerHTML`, so a workspace path holding `<meta http-equiv="refresh">` navigated the page
 * (issue 10). Excerpts are built from the page text (src/lib/search/excerpt.ts), not from Pagefind's HTML excerpt.
 *
 * A result is a search document (src/lib/search/document.ts): a turn of a session, or an artifact page. Results are
 * grouped by session (src/lib/search/results.ts): the session's best turn as `<session title> › Turn 4: <request>`
 * linking to the turn, its step hits under it (`step 38 · run_command npm test · exit 1`, each linking to its step
 * page, the best with an excerpt), and the session's other turns folded under "N more results in this session".
 *
 * The index is sharded (src/integrations/pagefind.ts) and holds one index per language in each shard (documents are
 * indexed in their own language, so Chinese and Japanese words are split): `data-bundles` lists the Pagefind
 * bundles to search, each `{ bundle, baseUrl }` (the bundle folder's URL, and the base its result URLs are relative
 * to): this site's shards that hold sessions, or in a joined site every part's (src/lib/join/). The first is
 * searched as the main index, and every other bundle and every other language of each bundle is merged into it
 * (`mergeIndex`, each with its own base and language), so results and filters come back as one. Pagefind starts as
 * soon as the page runs; with a `?q=`, that query's chunks are preloaded meanwhile and it is searched the moment the
 * indexes are merged. The query is kept in the URL (`?q=`), so a reload or a shared link shows the same results. The
 * filter values load when a filter group is first opened (`FilterPanel`).
 */
import {
  afterHeading,
  contentWords,
  excerptParts,
  fragmentWords,
  pairHits,
  sectionRange,
  type ExcerptPart,
  type PageAnchor,
  type WordHit,
} from '../lib/search/excerpt.ts';
import { documentHref, groupBySession, stepHits, type SessionGroup } from '../lib/search/results.ts';
import { searchPlan, shownText } from '../lib/search/cjk.ts';
import {
  FILTER_ORDER,
  filterGroups,
  filterLabel,
  filterValueLabel,
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
  /** The content with `<` and `>` escaped and, on a segmented (Chinese, Japanese) page, a zero-width space after each word. */
  raw_content?: string;
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

/**
 * The excerpt of a section (a step's, or the part before a document's first heading) around its hits. The range is
 * found on the words as indexed (a heading's title is indexed text too), the excerpt drawn from them as shown.
 */
function sectionExcerpt(fragment: Fragment, sub: Fragment['sub_results'][number] | undefined, bigrams: ReadonlySet<string>): HTMLParagraphElement {
  const indexed = contentWords(fragment.content);
  const { words, joined } = fragmentWords(fragment.content, fragment.raw_content);
  const [start, to] = sub ? sectionRange(fragment.anchors, words.length, sub.anchor) : [0, words.length];
  const title = sub?.anchor ? sub.title.trim() : '';
  const from = title ? Math.min(afterHeading(indexed, start, title), to) : start;
  const hits = pairHits(indexed, sub ? sub.weighted_locations : fragment.weighted_locations, bigrams);
  return excerptNode(excerptParts(words, hits, from, to, undefined, joined), 'search-result-excerpt');
}

/** Step hits shown with an excerpt under a document; the others are listed by their heading. */
const EXCERPTS_PER_DOCUMENT = 2;
/** Step hits listed under a document at most ("and N more steps" after). */
const STEPS_LISTED = 6;

/**
 * One document: its heading (`<session title> › Turn 4: <request>`) linking to the turn in the conversation, the
 * facts line, and its step hits, each `step 38 · run_command npm test · exit 1` linking to the step's page, the
 * best with an excerpt. `brief`: a session's further documents, with their step hits but no excerpts.
 */
function documentNode(fragment: Fragment, brief: boolean, bigrams: ReadonlySet<string>): HTMLElement {
  const box = el('div', brief ? 'search-result-doc is-brief' : 'search-result-doc');
  const heading = el(brief ? 'h3' : 'h2', 'search-result-title');
  const href = safeHref(documentHref(fragment));
  const title = shownText(fragment.meta.title?.trim() ?? '') || fragment.url;
  if (href) {
    const link = el('a', 'search-result-link', title);
    link.href = href;
    heading.append(link);
  } else heading.textContent = title;
  box.append(heading);
  const facts = resultFacts(fragment);
  if (facts && !brief) box.append(el('p', 'search-result-facts', facts));
  const steps = stepHits(fragment);
  if (steps.length === 0) {
    // An artifact page (or a hit before a document's first step): one excerpt from its best section.
    if (!brief) {
      const best = [...fragment.sub_results].sort((a, b) => b.weighted_locations.length - a.weighted_locations.length)[0];
      box.append(sectionExcerpt(fragment, best, bigrams));
    }
    return box;
  }
  const list = el('ul', 'search-result-steps');
  steps.slice(0, STEPS_LISTED).forEach((hit, i) => {
    const item = el('li', 'search-result-step');
    const link = el('a', 'search-result-step-link', shownText(hit.title));
    const target = safeHref(hit.href);
    if (target) link.href = target;
    item.append(link);
    if (!brief && i < EXCERPTS_PER_DOCUMENT) item.append(sectionExcerpt(fragment, hit.sub as Fragment['sub_results'][number], bigrams));
    list.append(item);
  });
  if (steps.length > STEPS_LISTED) list.append(el('li', 'search-result-step muted small', `and ${plural(steps.length - STEPS_LISTED, 'more step')} in this turn`));
  box.append(list);
  return box;
}

/** One session's results: its best document in full, the others folded under "N more in this session". */
class SessionResult {
  readonly node = el('li', 'search-result');
  private readonly more = el('details', 'search-result-more');
  private readonly summary = el('summary', 'small');
  private readonly rest = el('div', 'search-result-more-docs');
  private count = 0;

  private readonly bigrams: ReadonlySet<string>;

  constructor(group: SessionGroup<Fragment>, bigrams: ReadonlySet<string>) {
    this.bigrams = bigrams;
    this.node.dataset.session = group.session;
    const [best, ...others] = group.docs;
    if (best) this.node.append(documentNode(best, false, bigrams));
    this.more.append(this.summary, this.rest);
    this.add(others);
  }

  /** More documents of this session, found on a later page of results. */
  add(docs: readonly Fragment[]): void {
    if (docs.length === 0) return;
    this.rest.append(...docs.map((d) => documentNode(d, true, this.bigrams)));
    this.count += docs.length;
    this.summary.textContent = `${plural(this.count, 'more result', 'more results')} in this session`;
    if (!this.more.isConnected) this.node.append(this.more);
  }
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
    const name = el('span', 'search-filter-value', filterValueLabel(group, view.value));
    if (name.textContent !== view.value) name.title = view.value;
    label.append(input, name, count);
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
  /** The sessions listed for the shown query, by session, with what they list. */
  private sessions = new Map<string, SessionGroup<Fragment>>();
  private sessionNodes = new Map<string, SessionResult>();
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

  /**
   * Pagefind's search for `term` and what is ticked. A null term with filters lists every page the filters match.
   * The term is asked as the index holds words (`searchPlan`: Chinese, Japanese and Korean as pairs); a result must
   * hold each of the plan's phrases too (searched on their own: Pagefind drops a word it finds nowhere), and the
   * documents holding the query as typed (`first`: a file name, a command) are listed before the others.
   */
  private async find(term: string, selection: FilterSelection): Promise<SearchResponse | null> {
    const filters = searchFilters(selection);
    if (!term) return this.pagefind.search(null, { filters });
    const plan = searchPlan(term);
    const asks = [plan.term, ...(plan.first ? [plan.first] : []), ...plan.phrases];
    const [found, ...others] = await Promise.all(asks.map((t) => this.pagefind.search(t, { filters })));
    if (!found) return null;
    const exact = plan.first ? (others.shift()?.results ?? []) : [];
    const holding = others.map((r) => new Set((r?.results ?? []).map((x) => x.id)));
    const exactIds = new Set(exact.map((x) => x.id));
    const results = [...exact, ...found.results.filter((x) => !exactIds.has(x.id))].filter((x) => holding.every((ids) => ids.has(x.id)));
    return { ...found, results };
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
    if (term && delay > 0) this.pagefind.preload(searchPlan(term).term).catch(() => {});
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
    this.sessions = new Map();
    this.sessionNodes = new Map();
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
    // Grouped by session: a session's later documents join the session already listed.
    const before = new Map([...this.sessions].map(([k, g]) => [k, g.docs.length]));
    const added = groupBySession(fragments, this.sessions);
    for (const [session, n] of before) {
      const group = this.sessions.get(session);
      if (group && group.docs.length > n) this.sessionNodes.get(session)?.add(group.docs.slice(n));
    }
    for (const group of added) {
      const node = new SessionResult(group, searchPlan(this.term()).bigrams);
      this.sessionNodes.set(group.session, node);
      this.list.append(node.node);
    }
    this.more.hidden = this.shown >= this.results.length;
    if (!this.more.hidden) this.more.textContent = `More results (${plural(this.results.length - this.shown, 'more', 'more')})`;
  }
}

/** The languages a bundle indexed (`pagefind-entry.json`), by their documents; none when it cannot be read. */
async function bundleLanguages(bundle: string): Promise<Record<string, { page_count?: number }>> {
  try {
    const response = await fetch(`${bundle}pagefind-entry.json`);
    const entry = (await response.json()) as { languages?: Record<string, { page_count?: number }> };
    return entry.languages ?? {};
  } catch {
    return {};
  }
}

/**
 * The `mergeIndex` calls that make one search over every bundle's every language. Pagefind loads one language of a
 * bundle: the page's (`lang`), or the bundle's biggest when it has none of that language; each other language is
 * merged by name. The first bundle is the primary instance, and Pagefind skips a merge of the primary's own path,
 * so its other languages are merged through `<bundle>./` (the same folder).
 */
async function languageMerges(bundles: { bundle: string; baseUrl: string }[], lang: string): Promise<{ path: string; baseUrl: string; language?: string }[]> {
  const languages = await Promise.all(bundles.map((b) => bundleLanguages(b.bundle)));
  const merges: { path: string; baseUrl: string; language?: string }[] = [];
  bundles.forEach((b, i) => {
    const found = languages[i] ?? {};
    const names = Object.keys(found);
    const main = names.includes(lang) ? lang : names.sort((x, y) => (found[y]?.page_count ?? 0) - (found[x]?.page_count ?? 0))[0];
    if (i > 0) merges.push({ path: b.bundle, baseUrl: b.baseUrl });
    for (const name of names) {
      if (name === main) continue;
      merges.push({ path: i === 0 ? `${b.bundle}./` : b.bundle, baseUrl: b.baseUrl, language: name });
    }
  });
  return merges;
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
      const init = pagefind.init();
      // Every language index of every bundle (one per language Pagefind saw: documents are indexed in their own
      // language, so Chinese and Japanese are split into words); the first bundle's main language is the primary.
      const merges = await languageMerges([first, ...rest], document.documentElement.lang || 'en');
      const ready = Promise.all([
        init,
        ...merges.map((m) => pagefind.mergeIndex(m.path, { baseUrl: m.baseUrl, ranking: RANKING, ...(m.language ? { language: m.language } : {}) })),
      ]);
      if (q) pagefind.preload(searchPlan(q).term).catch(() => {});
      await ready;
      await new SearchPage(pagefind, input, status, list, more).start(filterHost);
    })
    .catch(() => {
      status.textContent = 'The search index could not be loaded. Serve this folder over http (npm run preview), not from file://.';
    });
}
