/**
 * What a page tells the search index about itself beyond its text: the result title (where the hit is), the
 * outcome line and status (how the step ended), and the `session` and `outcome` filter values. Built from the
 * lean rows the turn builder filled (`StepRow.outcome`, `answers`, `error`), never worked out again here. Pure: no
 * Astro, no HTML; the pages put these strings into hidden elements (`SearchMeta.astro`) as text.
 */
import { checkpointText } from '../turns/index.ts';

/** The parts of a step row this module reads (a `StepRow` fits). */
export interface StepForSearch {
  key: string;
  type: string;
  tools: string[];
  summary: string;
  error: boolean;
  /** What the step counts as (`turns/failures.ts` `stepFailure`): the result of a failed call, or an agent error. */
  failure?: 'call' | 'agent';
  answers?: string;
  outcome?: { kind: string; status: string; line: string; target?: string; bypass?: boolean };
}

/** The parts of a session this module reads (a `SessionSummary` fits). */
export interface SessionForSearch {
  title: string;
  prefix: string;
}

/** A page's search metadata: shown by the search page as text, filtered on by Pagefind. */
export interface SearchMeta {
  /** The result title: `<session title> › step N · <tool> <what it acted on>`. */
  title: string;
  /** How the step ended, one line (`npm test · exit 1`), when it ran something or failed. */
  outcome?: string;
  /** `ok`, `failed`, `running`, `cancelled`, `unknown` (the turn builder's `OutcomeStatus`). */
  outcomeStatus?: string;
  /** Values of the `outcome` filter: `failed`, `outside sandbox`. */
  outcomeFilters: string[];
  /** Value of the `session` filter: the session's title and short id. */
  session: string;
  /** Text to index in place of a block the page marks `data-pagefind-ignore` (a checkpoint as recorded). */
  text?: string;
}

/** Characters of a session title in a result title and in the session filter. */
const SESSION_TITLE_MAX = 60;
/** Characters of what a call acted on in a result title. */
const TARGET_MAX = 90;

/** The first line of `text`, cut to `max` characters with an ellipsis. */
export function shortLine(text: string, max: number): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim().replace(/\s+/g, ' ') ?? '';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** What a step without a call is, in words (`USER_INPUT` → `user request`). */
const TYPE_WORDS: Record<string, string> = {
  USER_INPUT: 'user request',
  PLANNER_RESPONSE: 'model reply',
  CHECKPOINT: 'checkpoint',
  ERROR_MESSAGE: 'error',
  SYSTEM_MESSAGE: 'system message',
  EPHEMERAL_MESSAGE: 'ephemeral message',
  CONVERSATION_HISTORY: 'conversation history',
  KNOWLEDGE_ARTIFACTS: 'knowledge items',
};

function typeWords(type: string): string {
  return Object.hasOwn(TYPE_WORDS, type) ? (TYPE_WORDS[type] as string) : type.toLowerCase().replace(/_+/g, ' ').trim() || 'step';
}

/** The session filter's value for a session: its title and short id, so two sessions of one title stay apart. */
export function sessionFilterValue(s: SessionForSearch): string {
  return `${shortLine(s.title, SESSION_TITLE_MAX) || s.prefix} · ${s.prefix}`;
}

/**
 * What a step is, in a few words: a call step by its first tool and what that call acted on, a result by
 * `output of <tool> <target>` (`answeredTool`: the tool of the call it answers), any other step by its kind.
 */
export function stepWhat(row: StepForSearch, answeredTool?: string): string {
  const o = row.outcome;
  const target = o?.target ? shortLine(o.target, TARGET_MAX) : '';
  const tool = row.tools[0] ?? (row.answers !== undefined ? answeredTool : undefined);
  if (tool !== undefined && row.tools.length > 0) {
    const more = row.tools.length > 1 ? ` (+${row.tools.length - 1} more call${row.tools.length > 2 ? 's' : ''})` : '';
    return `${tool}${target ? ` ${target}` : ''}${more}`;
  }
  if (tool !== undefined) return `output of ${tool}${target ? ` ${target}` : ''}`;
  return typeWords(row.type);
}

/**
 * A step page's search metadata. `answeredTool` is the tool name of the call a result step answers (a result
 * records no tool of its own). A call step is named by its first tool and what that call acted on, a result by
 * `output of <tool> <target>`, any other step by its kind in words.
 */
export function stepSearchMeta(s: SessionForSearch, row: StepForSearch, answeredTool?: string): SearchMeta {
  const o = row.outcome;
  const what = stepWhat(row, answeredTool);
  const meta: SearchMeta = {
    title: `${shortLine(s.title, SESSION_TITLE_MAX) || s.prefix} › step ${row.key} · ${what}`,
    outcomeFilters: [],
    session: sessionFilterValue(s),
  };
  if (o) {
    meta.outcome = shortLine(o.line, 200);
    meta.outcomeStatus = row.error && o.status !== 'failed' ? 'failed' : o.status;
  } else if (row.error) {
    meta.outcome = shortLine(row.summary, 200) || 'failed';
    meta.outcomeStatus = 'failed';
  }
  if (row.error || o?.status === 'failed') meta.outcomeFilters.push('failed');
  if (o?.bypass) meta.outcomeFilters.push('outside sandbox');
  return meta;
}

/** A session page's or artifact page's search metadata (`what` names the artifact). */
export function sessionSearchMeta(s: SessionForSearch, what?: string): SearchMeta {
  const title = what ? `${shortLine(s.title, SESSION_TITLE_MAX) || s.prefix} › ${what}` : shortLine(s.title, 200) || s.prefix;
  return { title, outcomeFilters: [], session: sessionFilterValue(s) };
}

/** String values of a parsed record worth searching: its text, thinking, and each call's name and string arguments. */
function recordStrings(record: Record<string, unknown>): string[] {
  const out = [record.content, record.thinking].filter((v): v is string => typeof v === 'string');
  for (const call of Array.isArray(record.tool_calls) ? record.tool_calls : []) {
    if (call === null || typeof call !== 'object') continue;
    const { name, args } = call as { name?: unknown; args?: unknown };
    if (typeof name === 'string') out.push(name);
    if (args !== null && typeof args === 'object') for (const v of Object.values(args)) if (typeof v === 'string') out.push(v);
  }
  return out;
}

/** A JSON string literal's body (without quotes) decoded; a cut escape at the end is dropped. */
function decodeJsonString(body: string): string {
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body.replace(/\\u([0-9a-fA-F]{4})|\\(.)|\\$/g, (_, hex: string | undefined, c: string | undefined) =>
      hex ? String.fromCharCode(parseInt(hex, 16)) : c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '' : (c ?? ''),
    );
  }
}

/**
 * A transcript record a checkpoint quotes as a JSON line (`{"step_index":…,"content":"…"}`), as its text. Quoted
 * records are often cut mid-string (86033144 step 7136): then the `content` and `thinking` strings are read up to
 * where the line stops.
 */
function recordLineText(line: string): string | undefined {
  const t = line.trim();
  if (!t.startsWith('{"step_index"')) return undefined;
  try {
    const record = JSON.parse(t) as unknown;
    if (record !== null && typeof record === 'object') return recordStrings(record as Record<string, unknown>).join('\n');
  } catch {
    // A cut record: read its text fields as far as they go.
  }
  const parts = [...t.matchAll(/"(?:content|thinking)":"((?:[^"\\]|\\.)*)/g)].map((m) => decodeJsonString(m[1] ?? ''));
  return parts.join('\n');
}

/**
 * The words of a CHECKPOINT for the search index: its summary without the `{{ CHECKPOINT N }}` marker and the fixed
 * "truncated" sentence (`checkpointText`), each transcript record it quotes as a JSON line replaced by that
 * record's text (real checkpoints paste whole records: 86033144 step 7490, d493099f step 1581), wrapper tags such as
 * `<USER_REQUEST>` and Markdown markers dropped. The page still shows the checkpoint as recorded.
 */
export function checkpointSearchText(content: string | undefined): string {
  return checkpointText(content)
    .summary.split(/\r?\n/)
    .map((line) => recordLineText(line) ?? line)
    .join('\n')
    .replace(/<\/?[A-Z][A-Z_]*>/g, ' ')
    .replace(/^\s*#{1,6}\s+/gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
}
