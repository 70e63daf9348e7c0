/**
 * What the reader derives from the steps for headers, lists and filters. The patterns follow the spec's
 * heuristics (section 9), loosened where real data needs it (a local time with fractional seconds, a model line
 * without the "No need…" tail).
 */
import { saneTime } from './dates.ts';
import type { Artifact, SessionMeta, Step } from './types.ts';

/** A request block; one whose closing tag is missing runs to the end (overview.txt cuts long requests there). */
const REQUEST = /<USER_REQUEST>\s*([\s\S]*?)\s*(?:<\/USER_REQUEST>|$)/g;
const MODEL = /`Model Selection` from [^\n\r]*? to ([^\n\r]+?)\.\s*No need/g;
const MODEL_LOOSE = /`Model Selection` from [^\n\r]*? to ([^\n\r]+?)\.?[ \t]*$/gm;
const LOCAL_TIME = /The current local time is:\s*([^\s]+?)\.?(?=\s|$)/;
const MENTION = /@\[([^\]]+)\]/g;
const USER_INFORMATION = /<user_information>([\s\S]*?)<\/user_information>/;
const BRAIN_FOLDER = /[\\/]\.gemini[\\/][^\\/]+[\\/]brain([\\/]|$)/;
const ABSOLUTE_PATH = /(?:^|[\s'"`(])((?:\/|[A-Za-z]:[\\/])[^\s'"`,;)]*)/;

const OPENING = /\[Message\][^\n]*?\bsender=([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?=\s)[^\n]*?\bcontent=([^\n]*)/i;

/**
 * The message another session opened this one with: step 0 (a SYSTEM_MESSAGE or USER_INPUT) delivering
 * `[Message] timestamp=… sender=<session id> priority=… content=…`, the line every session receives messages in
 * (real d493099f, 86033144). A subagent has no user request; this says what its parent asked of it.
 */
export function openingMessage(steps: readonly Step[]): { sender: string; stepKey: string; firstLine: string } | undefined {
  const first = steps[0];
  if (!first || first.index !== 0 || (first.type !== 'SYSTEM_MESSAGE' && first.type !== 'USER_INPUT')) return undefined;
  const m = OPENING.exec(first.content ?? '');
  if (!m) return undefined;
  return { sender: (m[1] as string).toLowerCase(), stepKey: first.key, firstLine: (m[2] ?? '').trim() };
}

/** The first sentence of a message as a title, cut at a word boundary past 120 characters (a prompt is long). */
function shortTitle(text: string, max = 120): string {
  const sentence = /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** Derive the session's metadata. `ctimeMs` is the folder's ctime, the last fallback for the start time. */
export function deriveMeta(id: string, steps: Step[], artifacts: Artifact[], ctimeMs: number): SessionMeta {
  const requests: string[] = [];
  const mentioned = new Set<string>();
  let model: string | undefined;
  let localTime: string | undefined;
  let userInformation: string | undefined;
  const cwdCounts = new Map<string, number>();
  // Maps, not objects: names come from the transcript, and a tool called `constructor` or `__proto__` must count
  // like any other (an object would hand back Object.prototype's members).
  const toolCounts = new Map<string, number>();
  const typeCounts = new Map<string, number>();
  let toolCallCount = 0;
  let errorCount = 0;
  let firstMs = Number.POSITIVE_INFINITY;
  let lastMs = Number.NEGATIVE_INFINITY;
  let step0At: string | undefined;

  for (const step of steps) {
    typeCounts.set(step.type, (typeCounts.get(step.type) ?? 0) + 1);
    if (step.type === 'ERROR_MESSAGE' || step.status === 'ERROR' || (step.error !== undefined && step.error !== null))
      errorCount++;
    // Only times the archive places (dates.ts): a year-275760 step would make the start, the duration and every
    // day group meaningless, and is reported as a `bad-date` problem where it was read.
    const ms = saneTime(step.createdAt);
    if (ms !== undefined) {
      if (ms < firstMs) firstMs = ms;
      if (ms > lastMs) lastMs = ms;
      if (step.index === 0 && step.occurrence === 0) step0At = step.createdAt;
    }
    for (const call of step.toolCalls) {
      toolCallCount++;
      toolCounts.set(call.name, (toolCounts.get(call.name) ?? 0) + 1);
      const cwd = call.args.Cwd;
      if (typeof cwd === 'string' && cwd.trim() !== '') cwdCounts.set(cwd, (cwdCounts.get(cwd) ?? 0) + 1);
    }
    const content = step.content;
    if (!content) continue;
    // The model switch is announced in user inputs but may be quoted anywhere: the last one wins.
    if (content.includes('Model Selection')) {
      let found: string | undefined;
      for (const m of content.matchAll(MODEL)) found = m[1];
      if (found === undefined) for (const m of content.matchAll(MODEL_LOOSE)) found = m[1];
      if (found !== undefined) model = found.trim();
    }
    if (step.type !== 'USER_INPUT') continue;
    // The conversation database keeps what the user typed without the transcripts' wrappers (fields.ts, 19.2).
    if (step.origin === 'db') requests.push(content.trim());
    else for (const m of content.matchAll(REQUEST)) if (m[1] !== undefined) requests.push(m[1]);
    for (const m of content.matchAll(MENTION)) if (m[1] !== undefined) mentioned.add(m[1]);
    if (localTime === undefined) localTime = LOCAL_TIME.exec(content)?.[1];
    if (userInformation === undefined) userInformation = USER_INFORMATION.exec(content)?.[1];
  }

  // The agent often runs its scratch scripts with Cwd = its own brain folder (86033144, d493099f): that is not
  // the user's workspace, so brain folders count only when nothing else was used.
  let workspace = mostUsed(cwdCounts, (cwd) => !BRAIN_FOLDER.test(cwd)) ?? mostUsed(cwdCounts, () => true);
  if (workspace === undefined && userInformation !== undefined) workspace = workspaceFromUserInformation(userInformation);

  // The records' own times come first, whichever log holds them (overview.txt included: a session archived in
  // December whose log starts in May started in May). Without any dated record, the earliest artifact `updatedAt`
  // is still the session's own word; the folder ctime (often just when the folder was copied) comes last, and
  // `createdAtFrom` says so.
  const recordsAt = step0At ?? (Number.isFinite(firstMs) ? new Date(firstMs).toISOString() : undefined);
  const artifactsAt = recordsAt === undefined ? earliestArtifactTime(artifacts) : undefined;
  const createdAt = recordsAt ?? artifactsAt ?? new Date(ctimeMs).toISOString();
  const firstLine = requests[0]?.split(/\r?\n/).find((l) => l.trim() !== '')?.trim();
  const opening = openingMessage(steps);
  const openingTitle = opening && opening.sender !== id.toLowerCase() ? shortTitle(opening.firstLine) : undefined;
  const meta: SessionMeta = {
    title: firstLine || openingTitle || artifactTitle(artifacts) || id,
    requests,
    mentionedFiles: [...mentioned],
    createdAt: normaliseIso(createdAt),
    stepCount: steps.length,
    toolCallCount,
    toolCounts: Object.fromEntries(toolCounts),
    typeCounts: Object.fromEntries(typeCounts),
    errorCount,
  };
  if (recordsAt === undefined) meta.createdAtFrom = artifactsAt !== undefined ? 'artifacts' : 'folder';
  if (requests[0] !== undefined) meta.request = requests[0];
  if (model !== undefined) meta.model = model;
  if (localTime !== undefined) meta.localTime = localTime;
  if (workspace !== undefined) meta.workspace = workspace;
  if (Number.isFinite(firstMs) && Number.isFinite(lastMs)) {
    meta.firstAt = new Date(firstMs).toISOString();
    meta.lastAt = new Date(lastMs).toISOString();
    meta.durationMs = lastMs - firstMs;
  }
  return meta;
}

function mostUsed(counts: Map<string, number>, keep: (cwd: string) => boolean): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const [cwd, n] of counts) {
    if (keep(cwd) && n > bestCount) {
      best = cwd;
      bestCount = n;
    }
  }
  return best;
}

/** Prefer a line that names the workspace; else the first absolute path in the block. */
function workspaceFromUserInformation(block: string): string | undefined {
  const lines = block.split(/\r?\n/);
  const named = lines.find((l) => /workspace/i.test(l) && ABSOLUTE_PATH.test(l));
  const hit = ABSOLUTE_PATH.exec(named ?? block)?.[1];
  return hit?.replace(/[.:]+$/, '');
}

/**
 * A title from the artifacts when no request gives one: the first artifact summary, else the first heading of an
 * artifact's text, else the first artifact's file name (a folder of artifacts is never titled by its bare uuid).
 */
function artifactTitle(artifacts: Artifact[]): string | undefined {
  const summary = artifacts.find((a) => a.metadata?.summary?.trim())?.metadata?.summary?.trim();
  if (summary) return summary;
  for (const a of artifacts) {
    const heading = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(a.text ?? '')?.[1]?.trim();
    if (heading) return shortTitle(heading);
  }
  return artifacts[0]?.name;
}

function earliestArtifactTime(artifacts: Artifact[]): string | undefined {
  let best = Number.POSITIVE_INFINITY;
  for (const a of artifacts) {
    const ms = saneTime(a.metadata?.updatedAt);
    if (ms !== undefined && ms < best) best = ms;
  }
  return Number.isFinite(best) ? new Date(best).toISOString() : undefined;
}

function normaliseIso(value: string): string {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}
