/**
 * `npm run sessions [-- <prefix>] [-- --json]`: what the build will see (the archive store's sessions, and any on
 * disk it does not hold yet; see `src/lib/archive/inputs.ts`). A thin layer over the reader.
 *   no argument   a table of every session, newest first
 *   <prefix>      one session's metadata and problems (every candidate when the prefix is ambiguous)
 *   --json        only a JSON array of {id, product, createdAt, title, model, workspace, steps, problems, usage},
 *                 redacted as the site's `/sessions.json` is (it is made to be passed on); ARCHIVE_REDACT=off as for
 *                 the build. `usage` (tokens of every model call, from the conversation database; `turns/usage.ts`)
 *                 is absent for a session without one.
 * The table and the one-session view are redacted as `--json` is (a title or a workspace can hold a secret), and
 * print each string with its control codes escaped (terminal-text.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareNewestFirst, discoveryOptionsFromEnv, problemTotal, resolvePrefix, type Session } from '../src/lib/brain/index.ts';
import { resolveArchiveInputs } from '../src/lib/archive/inputs.ts';
import { readSessionOrPlaceholder } from '../src/lib/archive/unreadable.ts';
import { StoreError } from '../src/lib/store/schema.ts';
import { redactSession, redactionEnabledFromEnv } from '../src/lib/redact/index.ts';
import { terminalText } from '../src/lib/terminal-text.ts';
import { callsWords, promptWords, sessionUsage, tokenWords, type SessionUsage } from '../src/lib/turns/usage.ts';
import { costWords, estimateCost, priceTableFromEnv } from '../src/lib/turns/prices.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const prefix = args.find((a) => !a.startsWith('--'));

const options = discoveryOptionsFromEnv();
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quiet = { info: () => undefined, warn: () => undefined };
let inputs: Awaited<ReturnType<typeof resolveArchiveInputs>>;
try {
  inputs = await resolveArchiveInputs(projectRoot, process.env, quiet);
} catch (error) {
  if (!(error instanceof StoreError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const discovery = inputs.discovery;
const where = inputs.stores.length > 0 ? inputs.description : options.brainRoots ? `BRAIN_ROOTS=${options.brainRoots.join(':')}` : `GEMINI_HOME=${options.geminiHome}`;

if (inputs.isDemo && !json) {
  console.error(`No brain folder found (${inputs.noRootReason ?? where}).`);
  console.error('Hint: set GEMINI_HOME to the folder holding <product>/brain/, or BRAIN_ROOTS to brain folders (:-separated).');
  process.exit(1);
}

let refs = inputs.isDemo ? [] : discovery.sessions;
if (prefix !== undefined) {
  refs = resolvePrefix(refs, prefix);
  if (refs.length === 0) {
    if (json) {
      console.log('[]');
    } else {
      console.error(`No session id starts with "${prefix}" (${where}, ${discovery.sessions.length} session(s) found).`);
      console.error('Hint: run `npm run sessions` to list them; give at least the first 8 characters of an id.');
    }
    process.exit(1);
  }
}

// The site's redaction, session by session, for every view: a secret in a title is found as in every published
// field, and one found anywhere in the session goes from the title and the workspace too.
const enabled = redactionEnabledFromEnv();
const sessions = (
  await Promise.all(refs.map(async (r) => (await redactSession(await readSessionOrPlaceholder(r), { enabled })).session))
).sort(compareNewestFirst);

if (json) {
  const rows = sessions.map((s) => ({
    id: s.id,
    product: s.product,
    createdAt: s.meta.createdAt,
    title: s.meta.title,
    model: s.meta.model ?? null,
    workspace: s.meta.workspace ?? null,
    steps: s.steps.length,
    problems: problemTotal(s.problems),
    notOnDiskSince: s.notOnDiskSince ?? null,
    ...withUsage(sessionUsage(s)),
  }));
  console.log(JSON.stringify(rows, null, 2));
} else if (prefix === undefined) {
  printTable(sessions);
  const rootProblems = discovery.problems.length;
  console.log(`\n${sessions.length} session(s) in ${discovery.roots.length} root(s)${rootProblems ? `, ${rootProblems} discovery problem(s)` : ''}.`);
} else {
  if (sessions.length > 1) console.log(`"${prefix}" matches ${sessions.length} sessions:\n`);
  for (const s of sessions) printDetail(s);
}

/** `{ usage }` when the session has a conversation database, else nothing (absent, not zeros that look measured). */
function withUsage(usage: SessionUsage | undefined): { usage?: SessionUsage } {
  return usage ? { usage } : {};
}

/** Local time as the reader's machine shows it, minute precision. */
function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** One line of at most `width` characters, control codes escaped. */
function clip(text: string, width: number): string {
  const one = terminalText(text.replace(/\s+/g, ' ').trim());
  return one.length > width ? `${one.slice(0, width - 1)}…` : one;
}

function printTable(list: Session[]): void {
  const rows = list.map((s) => [
    terminalText(s.id.slice(0, 8)),
    terminalText(s.product),
    localTime(s.meta.createdAt),
    String(s.steps.length),
    String(problemTotal(s.problems)),
    `${s.notOnDiskSince ? `[not on disk since ${localTime(s.notOnDiskSince)}] ` : ''}${clip(s.meta.title, 60)}`,
  ]);
  const head = ['PREFIX', 'PRODUCT', 'STARTED', 'STEPS', 'PROBLEMS', 'TITLE'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const right = new Set([3, 4]);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : right.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

function printDetail(s: Session): void {
  const m = s.meta;
  const field = (name: string, value: unknown) => {
    if (value !== undefined && value !== '') console.log(`  ${name.padEnd(12)} ${terminalText(String(value))}`);
  };
  console.log(terminalText(s.id));
  field('product', s.product);
  field('not on disk', s.notOnDiskSince ? `since ${localTime(s.notOnDiskSince)} (${s.notOnDiskSince}); kept by the archive store` : undefined);
  field('archived', s.archived ? `first seen ${s.archived.firstSeen}, last seen ${s.archived.lastSeen}` : undefined);
  field('never seen', s.missingSteps.map((m) => `${m.file}: ${m.ranges.map((r) => (r.from === r.to ? r.from : `${r.from}-${r.to}`)).join(', ')}`).join('; ') || undefined);
  field('title', clip(m.title, 100));
  field('started', `${localTime(m.createdAt)} (${m.createdAt})${m.createdAtFrom ? `; no step record is dated: ${m.createdAtFrom === 'artifacts' ? 'the earliest artifact update' : 'the folder’s own time'}` : ''}`);
  field('local time', m.localTime);
  field('duration', m.durationMs !== undefined ? `${Math.round(m.durationMs / 60000)} min` : undefined);
  field('model', m.model);
  field('workspace', m.workspace);
  field('steps', `${m.stepCount} (${m.toolCallCount} tool calls, ${m.errorCount} errors)`);
  const usage = sessionUsage(s);
  if (usage) {
    field('tokens', `${callsWords(usage.calls)}: ${tokenWords(usage)}`);
    for (const [model, u] of Object.entries(usage.by_model)) field('', `  ${model}: ${callsWords(u.calls)}: ${tokenWords(u)}`);
    const cost = estimateCost(usage.by_model, priceTableFromEnv());
    field('cost', cost ? costWords(cost) : 'no estimate: no model of it has a price (ARCHIVE_PRICES=<file.json> gives one)');
  }
  if (s.conversation?.prompt) field('last prompt', promptWords(s.conversation.prompt));
  if (s.conversation) field('database', `${s.conversation.file}${s.conversation.withWal ? ' with its -wal' : ''}, ${s.conversation.stepRows} steps`);
  field('mentions', m.mentionedFiles.join(', '));
  field('transcripts', s.transcriptFiles.join(', ') || 'none');
  field('artifacts', s.artifacts.length);
  field('messages', s.messages.length);
  field('task logs', s.taskLogs.length);
  field('uploads', s.uploads.length);
  field('scratch', s.scratch.length);
  console.log(`  problems     ${problemTotal(s.problems)}`);
  for (const p of s.problems) {
    console.log(terminalText(`    ${p.kind}  ${p.file}${p.line !== undefined ? `:${p.line}` : p.more !== undefined ? ` +${p.more}` : ''}  ${p.message}`));
  }
  for (const sh of discovery.shadowed.filter((x) => x.id === s.id)) {
    console.log(terminalText(`  shadowed     a copy in ${sh.shadowed.product} (${sh.shadowed.root})`));
  }
  console.log('');
}
