/**
 * Secret redaction, between the reader and everything that publishes: every string of a session that can reach a
 * page, the search index or a copied file is scanned, and each secret is replaced by `[REDACTED:<kind>]`.
 * Pure: no Astro, no disk.
 */
import type { Session } from '../brain/types.ts';
import { applyHits, scanTexts } from './scan.ts';

/** One kind of secret found in one place of a session (never the secret itself). */
export interface Redaction {
  sessionId: string;
  /** The step's key, when the place is inside a step. */
  stepKey?: string;
  /** Path of the field: relative to the step inside a step (`content`, `toolCalls[0].args.CommandLine`,
   * `sources[1].raw`), else from the session (`meta.title`, `artifacts[2].versions[0].text`, `messages[4].content`). */
  where: string;
  /** The file the text came from, relative to the session folder, when known. */
  file?: string;
  kind: string;
  /** How many secrets of this kind were replaced there. */
  count: number;
}

// Here since the build's plan phase reads them without loading secretlint (`settings.ts`).
export { REDACTOR_VERSION, redactionEnabledFromEnv } from './settings.ts';

/** Redacts one string; `kinds` lists each kind found once, in order of appearance. */
export async function redactText(text: string): Promise<{ text: string; kinds: string[] }> {
  const [hits = []] = await scanTexts([text]);
  return { text: applyHits(text, hits), kinds: [...new Set(hits.map((hit) => hit.kind))] };
}

/**
 * Returns a deep copy of the session with every published string redacted, and where each secret was.
 * With `enabled: false` the session itself is returned untouched, with no redactions.
 */
export async function redactSession(
  session: Session,
  options: { enabled?: boolean } = {},
): Promise<{ session: Session; redactions: Redaction[] }> {
  if (options.enabled === false) return { session, redactions: [] };

  const { copy, slots } = cloneAndCollect(session);
  // Files the reader cut at its size limit: a secret may straddle the cut, and its start is all the text has.
  const cutFiles = new Set(session.problems.filter((p) => p.kind === 'too-large').map((p) => p.file));
  const hitsPerSlot = await scanTexts(
    slots.map((slot) => slot.text),
    {
      json: slots.map((slot) => slot.json),
      cutAtEnd: slots.map((slot) => !slot.json && slot.file !== undefined && cutFiles.has(slot.file)),
    },
  );

  const byPlace = new Map<string, Redaction>();
  slots.forEach((slot, i) => {
    const hits = hitsPerSlot[i]!;
    if (hits.length === 0) return;
    if (slot.isKey) renameCountKey(slot.holder as Record<string, number>, slot.text, applyHits(slot.text, hits));
    else setOwn(slot.holder, slot.key, applyHits(slot.text, hits));
    for (const hit of hits) {
      const id = JSON.stringify([slot.stepKey, slot.where, slot.file, hit.kind]);
      const known = byPlace.get(id);
      if (known) known.count++;
      else {
        const redaction: Redaction = { sessionId: session.id, where: slot.where, kind: hit.kind, count: 1 };
        if (slot.stepKey !== undefined) redaction.stepKey = slot.stepKey;
        if (slot.file !== undefined) redaction.file = slot.file;
        byPlace.set(id, redaction);
      }
    }
  });
  return { session: copy as Session, redactions: [...byPlace.values()] };
}

/** A string in the copy, with where it sits. */
interface Slot {
  holder: object;
  key: string | number;
  text: string;
  where: string;
  stepKey?: string;
  file?: string;
  /** A transcript line as read (`sources[i].raw`): JSON, so scanned in its decoded readings only. */
  json: boolean;
  /** The text is a key of `holder` (a count by tool name), not a value. */
  isKey?: boolean;
}

/** Counts keyed by a name taken from the transcript (a tool's name can hold a secret, see TOOL_NAME). */
const COUNTS_BY_NAME = new Set(['meta.toolCounts', 'meta.typeCounts']);

/** Renames a count's key, adding to a count already under the new key (two names redacted alike). */
function renameCountKey(holder: Record<string, number>, from: string, to: string): void {
  const count = holder[from] ?? 0;
  delete holder[from];
  setOwn(holder, to, (holder[to] ?? 0) + count);
}

/** Where a step keeps the lines it was read from. */
const RAW_LINE = /^sources\[\d+\]\.raw$/;

/**
 * Identifiers and paths, not text: file names are needed to find and copy files and build URLs, and a secret in
 * them is far-fetched. They are kept as is, except inside free-form values (below), where every string counts.
 */
const IDENTIFIER_KEYS = new Set([
  'id', 'sessionId', 'product', 'dir', 'root', 'file', 'key', 'name', 'transcriptFiles', 'mediaType',
  'transcript', 'kind',
]);
/** Values recorded as found on disk, of any shape: every string inside is redacted, whatever its key. */
const FREE_FORM_KEYS = new Set(['args', 'extra', 'raw', 'error', 'errorCode', 'exitCode']);
/** A tool's name is whatever the transcript says it is (a hostile or broken record can put a secret there). */
const TOOL_NAME = /^toolCalls\[\d+\]\.name$/;

interface Frame {
  value: unknown;
  holder: object;
  key: string | number;
  where: string;
  stepKey: string | undefined;
  file: string | undefined;
  freeForm: boolean;
}

/**
 * A deep copy of plain JSON-like data, and every string slot to scan. Iterative, not recursive: tool arguments
 * and `extra` fields can be nested thousands of levels deep (the hostile corpus has 10 000), which would overflow
 * the stack of a recursive walk (and of `structuredClone`).
 */
function cloneAndCollect(root: Session): { copy: unknown; slots: Slot[] } {
  const top: { copy?: unknown } = {};
  const slots: Slot[] = [];
  const stack: Frame[] = [
    { value: root, holder: top, key: 'copy', where: '', stepKey: undefined, file: undefined, freeForm: false },
  ];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value, holder, key } = frame;
    if (typeof value === 'string') {
      setOwn(holder, key, value);
      const skip =
        !frame.freeForm && typeof key === 'string' && IDENTIFIER_KEYS.has(key) && !TOOL_NAME.test(frame.where);
      if (!skip && value.length > 0) {
        const json = frame.stepKey !== undefined && RAW_LINE.test(frame.where);
        const slot: Slot = { holder, key, text: value, where: frame.where, json };
        if (frame.stepKey !== undefined) slot.stepKey = frame.stepKey;
        if (frame.file !== undefined) slot.file = frame.file;
        slots.push(slot);
      }
      continue;
    }
    if (value === null || typeof value !== 'object') {
      setOwn(holder, key, value);
      continue;
    }
    if (Array.isArray(value)) {
      const copy: unknown[] = new Array(value.length);
      setOwn(holder, key, copy);
      // Each entry of the session's `steps` starts a step context: paths inside are relative to the step.
      const isSteps = frame.where === 'steps' && !frame.freeForm;
      for (let i = value.length - 1; i >= 0; i--) {
        const item = value[i];
        if (isSteps) {
          const stepKey = stringOr((item as { key?: unknown } | null)?.key, String(i));
          stack.push({ value: item, holder: copy, key: i, where: '', stepKey, file: undefined, freeForm: false });
        } else {
          stack.push({ ...frame, value: item, holder: copy, key: i, where: `${frame.where}[${i}]` });
        }
      }
      continue;
    }
    const copy: Record<string, unknown> = {};
    setOwn(holder, key, copy);
    const record = value as Record<string, unknown>;
    if (COUNTS_BY_NAME.has(frame.where) && !frame.freeForm && frame.stepKey === undefined) {
      for (const name of Object.keys(record)) {
        if (name.length > 0) slots.push({ holder: copy, key: name, text: name, where: `${frame.where}{key}`, json: false, isKey: true });
      }
    }
    // The nearest `file` names where the text inside came from (a source line, an artifact version, a message).
    const file = !frame.freeForm && typeof record.file === 'string' ? record.file : frame.file;
    for (const name of Object.keys(record)) {
      const where = frame.where === '' ? name : `${frame.where}.${name}`;
      const freeForm = frame.freeForm || FREE_FORM_KEYS.has(name);
      stack.push({ value: record[name], holder: copy, key: name, where, stepKey: frame.stepKey, file, freeForm });
    }
  }
  return { copy: top.copy, slots };
}

/** Sets an own property, also for a key such as `__proto__` that JSON.parse creates as plain data. */
function setOwn(holder: object, key: string | number, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    (holder as Record<string | number, unknown>)[key] = value;
  }
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}
