/**
 * The search document (issue 23): what Pagefind indexes for a session's conversation. An auditor's hit is a moment in
 * a conversation, the turn it happened in with the step inside it, so the unit of the index is a turn, not a step:
 * one document per turn (a turn of more than `STEPS_PER_DOCUMENT` steps in parts), whose steps are headings with
 * ids (`step-<key>`) followed by the text the step's page shows. Pagefind makes each heading a sub-result of the
 * document (`sub_results`, each with its own excerpt and `#step-<key>` URL): the search page lists a turn with the
 * step hits under it, and links each step hit to its step page. A call and the step answering it (`output of …`)
 * are one section, the call's: one hit, not two.
 *
 * At 10–50 steps a turn, this is 10–50× fewer documents than one per step: fewer files for Pagefind to read and
 * fragments to write, less metadata for the search page to load, fewer results to rank for a common word
 * (BENCHMARKS.md, "One document per turn"). Step pages stay, not indexed.
 *
 * The session's title is metadata (the result's heading, the `session` filter), and a word of the session's first
 * document only, not of every step. A document carries every filter value of its steps (each tool, status, step
 * type and model), and its language is that of its text. Its words are written as the index holds them
 * (`search/cjk.ts`: Chinese and Japanese as overlapping pairs, so a word is found wherever it stands). Pure: no Astro; the route `sessions/[id]/search/[doc].html.ts` renders
 * `searchDocumentHtml`, and `src/integrations/pagefind.ts` indexes those files.
 */
import type { Step } from '../brain/types.ts';
import { displayValue, filterValue } from '../archive/format.ts';
import { DEFAULT_LANGUAGE, languageOf } from '../language.ts';
import { indexedText } from './cjk.ts';
import {
  checkpointText,
  displayBody,
  harnessNote,
  isResultStep,
  isUserAction,
  leftOutOfSearch,
  readUserAction,
  requestText,
  systemMessageWords,
  type Turn,
} from '../turns/index.ts';
import { withoutDiffMarkers } from '../render/diff-block.ts';
import { checkpointSearchText, sessionFilterValue, shortLine, stepWhat, type StepForSearch } from './page-meta.ts';

/** Steps in one document at most: a long turn is split in parts, so no fragment the search page loads is huge. */
export const STEPS_PER_DOCUMENT = 40;

/** Characters of an output (a result, an `output.txt`) indexed: its head, as the step page always indexed. */
export const OUTPUT_INDEXED = 2_000;

/** Characters of one prose field (a reply, thinking, a request) indexed: a 1 MB reply is indexed by its head. */
export const PROSE_INDEXED = 64_000;

/** A string argument longer than this is code or a document (written files, edits), not a word an auditor types. */
const ARGUMENT_INDEXED = 1_000;

/** What grouping needs of a step row (a `StepRow` fits). */
export interface GroupRow {
  key: string;
  turn?: number;
}

/** One search document of a session: its slug (the file `search/<slug>.html`), turn, part and steps. */
export interface DocumentGroup {
  /** `turn-4`, `turn-4-part-2` for the second part of a long turn. */
  slug: string;
  turn: number;
  /** 1-based part of the turn. */
  part: number;
  keys: string[];
}

/**
 * The session's search documents, from its step rows in timeline order: consecutive steps of one turn, in parts
 * of at most `perDocument` steps. A pure function of the rows, so the routes (which have only rows) and the page
 * (which has the bodies) agree.
 */
export function searchDocumentGroups(rows: readonly GroupRow[], perDocument = STEPS_PER_DOCUMENT): DocumentGroup[] {
  const groups: DocumentGroup[] = [];
  const parts = new Map<number, number>();
  let current: DocumentGroup | undefined;
  for (const row of rows) {
    const turn = row.turn ?? 0;
    if (!current || current.turn !== turn || current.keys.length >= perDocument) {
      const part = (parts.get(turn) ?? 0) + 1;
      parts.set(turn, part);
      current = { slug: part === 1 ? `turn-${turn}` : `turn-${turn}-part-${part}`, turn, part, keys: [] };
      groups.push(current);
    }
    current.keys.push(row.key);
  }
  return groups;
}

/** The parts of a step row a document reads (a `StepRow` fits). */
export interface DocumentRow extends StepForSearch, GroupRow {
  status: string;
  model?: string;
  /** The model calls of the step (conversation database): each one's model is a filter value too. */
  calls?: readonly { model: string }[];
  createdAt?: string;
  /** For a result step: the key of the step whose call it answers. */
  answers?: string;
}

/** What a document needs of its session (a `SessionSummary` fits, with `subagent` from the session tree). */
export interface DocumentSession {
  id: string;
  title: string;
  prefix: string;
  product: string;
  workspace?: string | null;
  createdAt: string;
}

/** Everything one document is built from; URLs are given (`src/lib/urls.ts`), never built here. */
export interface DocumentInput {
  session: DocumentSession;
  subagent: boolean;
  group: DocumentGroup;
  /** Rows of the whole session, by key (a result's call may be in another document). */
  rows: ReadonlyMap<string, DocumentRow>;
  /** Step bodies, by key; a step missing here is indexed by its heading alone. */
  steps: ReadonlyMap<string, Step>;
  /** The turn holding the group (its request's words, without the harness's wrappers). */
  turn?: Turn;
  /** The document is the session's first: it carries the session's title as words. */
  first: boolean;
  /** Where the result's heading links (the turn in the conversation). */
  turnUrl: string;
  /** The session's step pages' folder (`/sessions/<id>/steps/`): a step's page is `<stepsUrl><key>/`. */
  stepsUrl: string;
}

/** One step (or a call with its answer) in a document: a heading with an id, and the text under it. */
export interface DocumentSection {
  /** `step-<key>`: the anchor Pagefind gives the sub-result; the search page links it to the step page. */
  id: string;
  key: string;
  /** `step 38 · run_command npm test · exit 1` */
  heading: string;
  /** Paragraphs of text, as written. */
  text: string[];
}

/** A search document, ready to be written as HTML. */
export interface SearchDocument {
  lang: string;
  /** Metadata the search page reads (`title`, `session`, `turn`, `date`, `steps`); every value text. */
  meta: Record<string, string>;
  filters: Record<string, string[]>;
  /** The session's title, on its first document only. */
  lead?: string;
  sections: DocumentSection[];
  date: string;
}

/** Characters of a session title and of a request in a result heading. */
const TITLE_MAX = 60;
const REQUEST_MAX = 90;

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf('\n', max);
  return text.slice(0, at > max / 2 ? at : max);
}

/**
 * `Turn 4: <request>`; `Before the first request` for turn 0. A later part of a long turn says which steps it holds
 * (`(continued: steps 7141–7180)`): "(part 2)" told a reader nothing (issue 30).
 */
export function turnHeading(turn: number, request: string | undefined, part = 1, keys: readonly string[] = []): string {
  const what = turn === 0 ? 'Before the first request' : `Turn ${turn}${request ? `: ${shortLine(request, REQUEST_MAX)}` : ''}`;
  if (part <= 1) return what;
  const [first, last] = [keys[0], keys.at(-1)];
  const steps = first === undefined ? '' : first === last ? `: step ${first}` : `: steps ${first}–${last}`;
  return `${what} (continued${steps})`;
}

/**
 * A step's heading: `step <key> · <what>` and how it ended when that says more than the target (`· exit 1`).
 * `answeredTool` is the tool of the call a result step answers.
 */
export function stepHeading(row: StepForSearch, answeredTool?: string): string {
  const what = stepWhat(row, answeredTool);
  let line = row.outcome?.line ? shortLine(row.outcome.line, 100_000) : '';
  // The line starts with what the call acted on, which `what` already says (cut): keep only how it ended.
  const target = row.outcome?.target ? shortLine(row.outcome.target, 100_000) : '';
  if (line && target && line.startsWith(target)) line = line.slice(target.length).replace(/^\s*·?\s*/, '');
  else if (line && what.includes(line)) line = '';
  line = shortLine(line, 120);
  return `step ${row.key} · ${what}${line ? ` · ${line}` : ''}`;
}

/** Arguments that hold what a call writes (a file's code, an edit's old and new text): on the step page, not indexed. */
const WRITTEN_ARGUMENTS = /^(?:CodeContent|ReplacementContent|TargetContent|ReplacementChunks|CodeEdit|Content|Diff|Patch)$/i;

/** A cut JSON array or object (`[{"StartLine":3,"ReplacementContent":"…` + `<truncated N bytes>`): the reader keeps its encoded text. */
const CUT_CONTAINER = /^\s*[[{][\s\S]*<truncated \d+ bytes>\s*$/;
/** A JSON string literal, and the colon after it when it is an object's key. */
const STRING_LITERAL = /"((?:[^"\\]|\\.)*)"(\s*:)?/g;

/** A JSON string literal's body decoded; undefined when it is not valid escaping. */
function decodeLiteral(body: string): string | undefined {
  try {
    const value: unknown = JSON.parse(`"${body}"`);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The strings of an argument value as a person reads them, never JSON-encoded: a string as it is, or decoded when
 * it is one JSON string literal (a full transcript's `"\"SYMBOLS\""`, 86033144); an array's or object's strings,
 * with the written arguments inside them skipped (`ReplacementChunks` entries); a cut array or object, which the
 * reader keeps encoded, by its string literals decoded (an excerpt read `.gitignore.\n\nProceed.` in 54 held-out
 * documents, issue 30). Long strings are written code or documents, not words an auditor types.
 */
function argumentStrings(value: unknown, out: string[], depth = 0): void {
  if (typeof value === 'string') {
    if (value.trim() === '') return;
    if (CUT_CONTAINER.test(value)) {
      for (const m of value.matchAll(STRING_LITERAL)) if (!m[2]) argumentStrings(decodeLiteral(m[1] ?? '') ?? '', out, depth + 1);
      return;
    }
    const literal = /^"[\s\S]*"$/.test(value) ? decodeLiteral(value.slice(1, -1)) : undefined;
    const text = literal ?? value;
    if (text.length <= ARGUMENT_INDEXED) out.push(text);
    return;
  }
  // Arguments are a model's JSON: a few levels deep at most (a question's options, an edit's chunks).
  if (depth > 4 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) argumentStrings(item, out, depth + 1);
    return;
  }
  for (const [name, v] of Object.entries(value)) if (!WRITTEN_ARGUMENTS.test(name)) argumentStrings(v, out, depth + 1);
}

/** String arguments of a call worth finding: paths, commands, queries, descriptions; not written code. */
function argumentWords(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [name, v] of Object.entries(args)) if (!WRITTEN_ARGUMENTS.test(name)) argumentStrings(v, out);
  return out;
}

/** The words a result step adds: its output's head (no transport header, no diff markers), its error. */
function resultWords(step: Step, tool: string | undefined): string[] {
  const out: string[] = [];
  if (step.content) out.push(cut(withoutDiffMarkers(displayBody(step.content, tool, step.type)), OUTPUT_INDEXED));
  return out;
}

/** The words of one step, as its page shows them (the index's share of them). */
function stepWords(step: Step, row: DocumentRow, turn: Turn | undefined, answeredTool: string | undefined): string[] {
  const out: string[] = [];
  const isResult = row.answers !== undefined;
  if (row.type === 'USER_INPUT') {
    const words = turn?.request?.stepKey === step.key ? turn.request.text : requestText(step.content);
    out.push(cut(words, PROSE_INDEXED));
  } else if (row.type === 'CHECKPOINT') out.push(checkpointSearchText(step.content) || checkpointText(step.content).summary);
  else if (isResult || isResultStep(step)) out.push(...resultWords(step, answeredTool));
  else if (isUserAction(step)) {
    // The user's own view or edit in their editor: its lines or diff, not the harness's sentence around them.
    const action = readUserAction(step.type, step.content);
    out.push([action.path ?? '', cut(withoutDiffMarkers(action.text), OUTPUT_INDEXED)].join('\n'));
  } else if (harnessNote(step) === 'system') out.push(cut(systemMessageWords(step.content), OUTPUT_INDEXED * 4));
  else if (step.content) out.push(cut(withoutDiffMarkers(step.content), step.toolCalls.length === 0 && step.source === 'SYSTEM' ? OUTPUT_INDEXED * 4 : PROSE_INDEXED));
  if (step.contentMd) out.push(cut(step.contentMd.text, PROSE_INDEXED));
  if (step.thinking) out.push(cut(step.thinking, PROSE_INDEXED));
  for (const call of step.toolCalls) out.push([call.name, ...argumentWords(call.args)].join('\n'));
  const error = displayValue(step.error);
  if (error) out.push(cut(error, OUTPUT_INDEXED));
  if (step.output && !step.output.duplicateOfContent) out.push(cut(step.output.text, OUTPUT_INDEXED));
  return out.map((t) => t.trim()).filter((t) => t !== '');
}

function add(filters: Record<string, string[]>, name: string, value: string | undefined | null): void {
  if (value === undefined || value === null || value === '') return;
  const v = filterValue(value);
  const list = (filters[name] ??= []);
  if (!list.includes(v)) list.push(v);
}

/**
 * One search document: a section per step of the group, except a result whose call is in the same document (its
 * words join the call's section, so a call and its output are one hit); filters are every value of its steps.
 */
export function searchDocument(input: DocumentInput): SearchDocument {
  const { session: s, group, rows, steps, turn } = input;
  const inGroup = new Set(group.keys);
  const sections: DocumentSection[] = [];
  const byKey = new Map<string, DocumentSection>();
  const filters: Record<string, string[]> = {};
  add(filters, 'product', s.product);
  add(filters, 'workspace', s.workspace);
  add(filters, 'session', sessionFilterValue(s));
  add(filters, 'session kind', input.subagent ? 'subagent' : 'top-level');
  let date: string | undefined;
  for (const key of group.keys) {
    const row = rows.get(key);
    const step = steps.get(key);
    if (!row || (step && leftOutOfSearch(step))) continue;
    date ??= row.createdAt && !Number.isNaN(Date.parse(row.createdAt)) ? row.createdAt : undefined;
    add(filters, 'step type', row.type);
    add(filters, 'status', row.status);
    add(filters, 'model', row.model);
    for (const call of row.calls ?? []) add(filters, 'model', call.model);
    for (const tool of row.tools) add(filters, 'tool', tool);
    // One count (turns/failures.ts): a turn is filed under `failed call` for a call whose result failed, under
    // `agent error` for an error step that answers no call. `failed` took every error step, agent errors too.
    if (row.failure === 'call' || (row.tools.length > 0 && row.outcome?.status === 'failed')) add(filters, 'outcome', 'failed call');
    if (row.failure === 'agent') add(filters, 'outcome', 'agent error');
    if (row.outcome?.bypass) add(filters, 'outcome', 'outside sandbox');
    const call = row.answers !== undefined ? rows.get(row.answers) : undefined;
    const answeredTool = call?.tools[0];
    const words = step ? stepWords(step, row, turn, answeredTool) : [];
    const host = row.answers !== undefined && inGroup.has(row.answers) ? byKey.get(row.answers) : undefined;
    if (host) {
      host.text.push(...words);
      continue;
    }
    const section: DocumentSection = { id: `step-${key}`, key, heading: stepHeading(row, answeredTool), text: words };
    sections.push(section);
    byKey.set(key, section);
  }
  const firstRequest = group.keys.find((k) => rows.get(k)?.type === 'USER_INPUT');
  const request = turn?.request?.text ?? (firstRequest ? requestText(steps.get(firstRequest)?.content) : undefined);
  const title = `${shortLine(s.title, TITLE_MAX) || s.prefix} › ${turnHeading(group.turn, request, group.part, group.keys)}`;
  const when = date ?? s.createdAt;
  const lead = input.first ? s.title : undefined;
  const all = [lead ?? '', ...sections.flatMap((x) => [x.heading, ...x.text])].join('\n');
  return {
    lang: languageOf(all) ?? DEFAULT_LANGUAGE,
    meta: {
      title,
      session: sessionFilterValue(s),
      turn: input.turnUrl,
      steps: input.stepsUrl,
      date: when,
    },
    filters,
    ...(lead ? { lead } : {}),
    sections,
    date: when,
  };
}

/** What an artifact's search document is built from (an `ArtifactRow` and its text); URLs are given. */
export interface ArtifactDocumentInput {
  session: DocumentSession;
  subagent: boolean;
  /** `implementation_plan.md`, `docs/README.md`. */
  name: string;
  summary?: string;
  /** When the artifact was last updated (its metadata's `updatedAt`), if that is a date. */
  updatedAt?: string;
  /** Its text, when it is text. */
  text?: string;
  /** The artifact's page, where the result links. */
  pageUrl: string;
}

/** The slug of an artifact's search document (`search/artifact-<slug>.html`); no turn's slug starts so. */
export function artifactDocumentSlug(artifactSlug: string): string {
  return `artifact-${artifactSlug}`;
}

/**
 * An artifact's search document: its name, summary and text (the head of a long one) under one heading, the
 * result titled `<session title> › <name>` and dated by the artifact's last update, with the session's filters.
 * Written like a turn's document, so its Chinese and Japanese words are found the same way (`search/cjk.ts`).
 */
export function artifactSearchDocument(input: ArtifactDocumentInput): SearchDocument {
  const { session: s } = input;
  const filters: Record<string, string[]> = {};
  add(filters, 'product', s.product);
  add(filters, 'workspace', s.workspace);
  add(filters, 'session', sessionFilterValue(s));
  add(filters, 'session kind', input.subagent ? 'subagent' : 'top-level');
  add(filters, 'step type', 'ARTIFACT');
  const text = [input.summary ?? '', cut(input.text ?? '', PROSE_INDEXED)].map((t) => t.trim()).filter((t) => t !== '');
  const when = input.updatedAt && !Number.isNaN(Date.parse(input.updatedAt)) ? input.updatedAt : s.createdAt;
  const section: DocumentSection = { id: 'artifact', key: '', heading: input.name, text };
  return {
    lang: languageOf([input.name, ...text].join('\n')) ?? DEFAULT_LANGUAGE,
    meta: { title: `${shortLine(s.title, TITLE_MAX) || s.prefix} › ${input.name}`, session: sessionFilterValue(s), turn: input.pageUrl, date: when },
    filters,
    sections: [section],
    date: when,
  };
}

/** A search document's policy: text and links only. */
export const SEARCH_DOCUMENT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'";

/**
 * Text as HTML, text and attribute values alike: `&`, `<`, `>` and both quotes, as Astro escapes its pages' text
 * (a quoted `href="…"` in a transcript stays visibly text to anything that scans the page for links).
 */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
const escapeAttribute = escapeText;

/** Metadata Pagefind searches and the page shows: written as the index holds words (`indexedText`). */
const INDEXED_META: ReadonlySet<string> = new Set(['title', 'session']);

/**
 * The document as a page for Pagefind: `<html lang>` its language, its text inside `data-pagefind-body`, each
 * section an `<h2 id="step-<key>">` with its paragraphs (`<pre>`, every line kept), metadata and filters as hidden
 * elements, every word as the index holds it (`indexedText`: Chinese and Japanese as overlapping pairs, which the
 * search page reads back as written). A reader who opens the file finds a link to the turn and to each step's page.
 */
export function searchDocumentHtml(doc: SearchDocument): string {
  const out: string[] = [];
  out.push(`<!doctype html><html lang="${escapeAttribute(doc.lang)}"><head><meta charset="utf-8">`);
  // Like every page, a Content-Security-Policy: this one allows nothing at all (no script, style or image).
  out.push(`<meta http-equiv="Content-Security-Policy" content="${SEARCH_DOCUMENT_CSP}">`);
  out.push(`<meta name="robots" content="noindex"><title>${escapeText(doc.meta.title ?? '')}</title></head><body>`);
  out.push(`<p>What the archive's search indexes for <a href="${escapeAttribute(doc.meta.turn ?? '')}">${escapeText(doc.meta.title ?? '')}</a>.</p>`);
  out.push('<main data-pagefind-body>');
  // Metadata as element text (an attribute value is cut at a comma), kept out of the indexed words.
  for (const [name, value] of Object.entries(doc.meta)) {
    // Pagefind searches metadata too: the words of a title are written as the body's are (the page shows them back).
    const text = INDEXED_META.has(name) ? indexedText(value) : value;
    out.push(`<span hidden data-pagefind-ignore data-pagefind-meta="${escapeAttribute(name)}">${escapeText(text)}</span>`);
  }
  out.push(`<span hidden data-pagefind-sort="${escapeAttribute(`date:${doc.date}`)}"></span>`);
  for (const [name, values] of Object.entries(doc.filters)) {
    for (const value of values) out.push(`<span hidden data-pagefind-filter="${escapeAttribute(`${name}:${value}`)}"></span>`);
  }
  if (doc.lead) out.push(`<p>${escapeText(indexedText(doc.lead))}</p>`);
  for (const section of doc.sections) {
    out.push(`<section><h2 id="${escapeAttribute(section.id)}">${escapeText(indexedText(section.heading))}</h2>`);
    for (const text of section.text) out.push(`<pre>${escapeText(indexedText(text))}</pre>`);
    out.push('</section>');
  }
  out.push('</main></body></html>\n');
  return out.join('\n');
}
