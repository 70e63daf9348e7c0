/**
 * Everything in a session folder besides the transcripts: step outputs, messages, task logs, root artifacts and
 * their versions, scratch files, uploads. All access goes through session-fs.ts (confined, problems not throws).
 */
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { boundNesting, nestingMessage } from './nesting.ts';
import {
  decodeText,
  fileSize,
  listDir,
  readBytes,
  readListedText,
  type SafeEntry,
  type SessionFs,
} from './session-fs.ts';
import type {
  Artifact,
  BrowserFile,
  NotShownFile,
  Problem,
  ArtifactMetadata,
  ArtifactVersion,
  Message,
  ScratchFile,
  StepFiles,
  TaskLog,
  Upload,
} from './types.ts';

/** Texts above this are cut (a `too-large` problem says so). Generous: outputs and logs are what auditors read. */
export const MAX_TEXT_BYTES = 4 * 1024 * 1024;
/** Scratch files are the agent's leftovers: kept smaller. */
export const MAX_SCRATCH_TEXT_BYTES = 256 * 1024;


/** What the inventory found. */
export interface Inventory {
  stepFiles: StepFiles[];
  artifacts: Artifact[];
  messages: Message[];
  taskLogs: TaskLog[];
  uploads: Upload[];
  scratch: ScratchFile[];
  browserTrail: BrowserFile[];
  notShown: NotShownFile[];
}

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.zip': 'application/zip',
};
/**
 * Raster images a page may show, by media type → the extension to publish them under. SVG is deliberately not one
 * (it can carry script).
 */
export const RASTER_EXTENSIONS: ReadonlyMap<string, string> = new Map([
  ['image/png', 'png'],
  ['image/jpeg', 'jpg'],
  ['image/gif', 'gif'],
  ['image/webp', 'webp'],
  ['image/avif', 'avif'],
  ['image/bmp', 'bmp'],
]);

function mediaTypeOf(name: string): string {
  return MEDIA_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * What a file of a session folder is, by its path: which reader takes it, and so where the site shows it. Every file
 * the walk finds gets one role; `unknown` (and the other roles without a place in `SHOWN_AT`) are listed on
 * `/report/` as not shown, so a kind of file Antigravity starts writing tomorrow is on the report the first day.
 */
export type FileRole =
  | 'transcript'
  | 'overview'
  | 'step-output'
  | 'step-content'
  | 'message'
  | 'message-state'
  | 'task-log'
  | 'artifact-doc'
  | 'artifact-metadata'
  | 'artifact-version'
  | 'artifact-file'
  | 'upload'
  | 'screenshot'
  | 'page-text'
  | 'click'
  | 'scratch'
  | 'unknown';

/**
 * Where the site shows each role, or `undefined` for not shown (listed on `/report/` with `NOT_SHOWN_KIND`). The one
 * table to edit when a reader starts showing a kind of file.
 */
export const SHOWN_AT: Readonly<Record<FileRole, string | undefined>> = {
  transcript: 'the step pages (a transcript)',
  // Read by the transcript reader as a source of its own tier (issue 20, point 1).
  overview: 'the step pages (the overview log)',
  // A step's page, or for a step in no transcript a page of its own (issue 20, point 6).
  'step-output': 'its step page',
  'step-content': 'its step page',
  message: 'the messages page',
  'message-state': undefined,
  'task-log': 'the task logs page',
  'artifact-doc': 'its artifact page',
  'artifact-metadata': 'its artifact page',
  'artifact-version': "its artifact page's history",
  'artifact-file': 'its artifact page',
  upload: 'the session page (images and uploads) and where it was used',
  screenshot: 'the step running at its time',
  'page-text': 'the step running at its time',
  click: 'the step running at its time',
  scratch: undefined,
  unknown: undefined,
};

/** What a not-shown file is, for the report (an `unknown` file says its extension and folder instead). */
const NOT_SHOWN_KIND: Partial<Record<FileRole, string>> = {
  'message-state': "the app's read state of the messages",
  scratch: 'scratch file',
};

/** A file of the session folder with its role. */
export interface SessionFile {
  entry: SafeEntry;
  role: FileRole;
}

const TRANSCRIPT_FILE = /^\.system_generated\/logs\/(?:transcript(?:_full)?\.jsonl|chunks\/transcript(?:_full)?\/[^/]+\.jsonl)$/;
/**
 * A step folder is named by its `step_index` as Antigravity writes it: `steps/2/`, never `steps/02/`. A zero-padded
 * name read as the same number took the slot of the real folder and one of the two vanished unreported (issue 27);
 * any other name is an unknown file, listed on /report/. Fifteen digits keep the number a safe integer.
 */
const STEP_FILE = /^\.system_generated\/steps\/(?:0|[1-9]\d{0,14})\/(output\.txt|content\.md)$/;
const MESSAGE_STATE = /^\.system_generated\/messages\/(?:cursor|read)\.json$/;
const MESSAGE = /^\.system_generated\/messages\/[^/]+\.json$/;
const TASK_LOG = /^\.system_generated\/tasks\/[^/]+\.log$/;
const CLICK = /^\.system_generated\/click_feedback\/[^/]+\.(?:png|jpe?g|webp)$/i;
const SCREENSHOT = /^\.tempmediaStorage\/media_[^/]+\.(?:png|jpe?g|webp)$/i;
const PAGE_TEXT = /^\.tempmediaStorage\/dom_[^/]+\.txt$/;
const USER_UPLOAD = /^\.user_uploaded\/[^/]+$/;
/** Folders of the app's own, where only the kinds named above are known: anything else there is `unknown`. */
const APP_FOLDERS = /^(?:\.system_generated|\.tempmediaStorage|\.user_uploaded)\//;
const SCRATCHPAD = /^browser\/scratchpad_[^/]+\.md$/;

/**
 * The role of the file `rel`, given every file path of the session (`files`: an artifact in a sub-folder is known by
 * its `.metadata.json` or `.resolved` beside it). Pure.
 */
export function classifyFile(rel: string, files: ReadonlySet<string>): FileRole {
  if (TRANSCRIPT_FILE.test(rel)) return 'transcript';
  if (rel === '.system_generated/logs/overview.txt') return 'overview';
  const step = STEP_FILE.exec(rel);
  if (step) return step[1] === 'output.txt' ? 'step-output' : 'step-content';
  if (MESSAGE_STATE.test(rel)) return 'message-state';
  if (MESSAGE.test(rel)) return 'message';
  if (TASK_LOG.test(rel)) return 'task-log';
  if (CLICK.test(rel)) return 'click';
  if (SCREENSHOT.test(rel)) return 'screenshot';
  if (PAGE_TEXT.test(rel)) return 'page-text';
  if (USER_UPLOAD.test(rel)) return 'upload';
  if (APP_FOLDERS.test(rel)) return 'unknown';
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const atRoot = !rel.includes('/');
  if (METADATA.test(name)) return 'artifact-metadata';
  if (RESOLVED.test(name)) return 'artifact-version';
  if (atRoot) {
    if (name.toLowerCase().endsWith('.md')) return 'artifact-doc';
    // Uploaded images, images a tool made and browser recordings (`<RecordingName>_<ms>.webp`), as before.
    if (mediaTypeOf(name).startsWith('image/')) return 'upload';
    // Any other root file (a code artifact kept on disk, say): an artifact.
    return 'artifact-file';
  }
  // In a sub-folder, an artifact is known by its metadata or versions beside it (`docs/README.md`); the browser
  // subagent's scratchpads have versions but never metadata, and are artifacts even when empty and alone.
  if (SCRATCHPAD.test(rel) || files.has(`${rel}.metadata.json`) || files.has(`${rel}.resolved`) || files.has(`${rel}.resolved.0`)) {
    return name.toLowerCase().endsWith('.md') ? 'artifact-doc' : 'artifact-file';
  }
  if (rel.startsWith('scratch/')) return 'scratch';
  return 'unknown';
}

/** What a not-shown file is, for people. */
export function notShownKind(rel: string, role: FileRole): string {
  const known = NOT_SHOWN_KIND[role];
  if (known !== undefined) return known;
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot) : 'no extension';
  const folder = rel.includes('/') ? `${rel.slice(0, rel.lastIndexOf('/'))}/` : 'the session root';
  return `unknown file (${ext}) in ${folder}`;
}

const MAX_WALK_DEPTH = 16;
const LOGS = '.system_generated/logs';

/** Every file of the session folder (through the confined access, so a stored session lists what the store kept). */
export async function listSessionFiles(sfs: SessionFs): Promise<SafeEntry[]> {
  const out: SafeEntry[] = [];
  // The transcript readers read the logs folder and report what is wrong there themselves: said once, not twice.
  const seen: Problem[] = [];
  const walking: SessionFs = { ...sfs, problems: seen };
  async function walk(rel: string, depth: number): Promise<void> {
    const entries = await listDir(walking, rel);
    const dirs: SafeEntry[] = [];
    for (const e of entries) {
      if (e.kind === 'dir') dirs.push(e);
      else out.push(e);
    }
    if (depth < MAX_WALK_DEPTH) await Promise.all(dirs.map((d) => walk(d.rel, depth + 1)));
  }
  await walk('.', 0);
  sfs.problems.push(...seen.filter((p) => p.file !== LOGS && !p.file.startsWith(`${LOGS}/`)));
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** Every file of the session folder with its role. */
export async function classifySessionFiles(sfs: SessionFs): Promise<SessionFile[]> {
  const entries = await listSessionFiles(sfs);
  const paths = new Set(entries.map((e) => e.rel));
  return entries.map((entry) => ({ entry, role: classifyFile(entry.rel, paths) }));
}

/** Read the whole inventory of a session folder: one walk, each file to the reader its role names. */
export async function readInventory(sfs: SessionFs): Promise<Inventory> {
  const files = await classifySessionFiles(sfs);
  const byRole = new Map<FileRole, SafeEntry[]>();
  for (const f of files) {
    const list = byRole.get(f.role);
    if (list) list.push(f.entry);
    else byRole.set(f.role, [f.entry]);
  }
  const of = (...roles: FileRole[]): SafeEntry[] => roles.flatMap((r) => byRole.get(r) ?? []);
  const [stepFiles, artifacts, messages, taskLogs, uploads, scratch, browserTrail, notShown] = await Promise.all([
    readStepFiles(sfs, of('step-output', 'step-content')),
    readArtifacts(sfs, of('artifact-doc', 'artifact-metadata', 'artifact-version', 'artifact-file')),
    readMessages(sfs, of('message')),
    readTaskLogs(sfs, of('task-log')),
    readUploads(sfs, of('upload')),
    readScratch(sfs, of('scratch')),
    readBrowserTrail(sfs, of('screenshot', 'page-text', 'click')),
    readNotShown(sfs, files.filter((f) => SHOWN_AT[f.role] === undefined)),
  ]);
  return { stepFiles, artifacts, messages, taskLogs, uploads, scratch, browserTrail, notShown };
}

async function readStepFiles(sfs: SessionFs, entries: SafeEntry[]): Promise<StepFiles[]> {
  const byIndex = new Map<number, StepFiles>();
  await Promise.all(
    entries.map(async (entry) => {
      const index = Number(entry.rel.split('/')[2]);
      const text = await readListedText(sfs, entry, MAX_TEXT_BYTES);
      if (text === undefined) return;
      let files = byIndex.get(index);
      if (!files) {
        files = { index };
        byIndex.set(index, files);
      }
      if (entry.name === 'output.txt') files.output = { file: entry.rel, text };
      else files.contentMd = { file: entry.rel, text };
    }),
  );
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

async function readJsonObject(sfs: SessionFs, entry: SafeEntry): Promise<Record<string, unknown> | undefined> {
  const rel = entry.rel;
  const text = await readListedText(sfs, entry, MAX_TEXT_BYTES);
  if (text === undefined) return undefined;
  try {
    const obj = asObject(JSON.parse(text));
    if (obj) {
      // Bounded like a transcript line (nesting.ts): a side file nested 5,000 deep would stop every step after it.
      const cuts = boundNesting(obj);
      if (cuts.length > 0) sfs.problems.push({ kind: 'too-deep', sessionId: sfs.sessionId, file: rel, message: nestingMessage(undefined, cuts) });
      return obj;
    }
  } catch {
    // reported below
  }
  sfs.problems.push({
    kind: 'bad-json',
    sessionId: sfs.sessionId,
    file: rel,
    message: `${rel} is not a JSON object; it is left out.`,
  });
  return undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * `messages/<uuid>.json`. `cursor.json` (last read time) and `read.json` (read flags by message id) are the
 * app's bookkeeping, not messages: they are not read.
 */
async function readMessages(sfs: SessionFs, entries: SafeEntry[]): Promise<Message[]> {
  const messages = await Promise.all(
    entries.map(async (e): Promise<Message | undefined> => {
      const raw = await readJsonObject(sfs, e);
      if (!raw) return undefined;
      const render = asObject(raw.renderDetails);
      const m: Message = { file: e.rel, hidden: raw.hideFromUser === true, raw };
      const fields: Array<[keyof Message, unknown]> = [
        ['id', raw.id],
        ['sender', raw.sender],
        ['recipient', raw.recipient],
        ['title', raw.title ?? render?.messageTitle],
        ['content', raw.content],
        ['timestamp', raw.timestamp],
        ['priority', raw.priority],
      ];
      for (const [k, v] of fields) {
        const s = str(v);
        if (s !== undefined) (m as unknown as Record<string, unknown>)[k] = s;
      }
      return m;
    }),
  );
  return messages
    .filter((m): m is Message => m !== undefined)
    .sort((a, b) => (a.timestamp ?? '').localeCompare(b.timestamp ?? '') || a.file.localeCompare(b.file));
}

async function readTaskLogs(sfs: SessionFs, entries: SafeEntry[]): Promise<TaskLog[]> {
  const logs = await Promise.all(
    entries.map(async (e) => {
      const text = await readListedText(sfs, e, MAX_TEXT_BYTES);
      return text === undefined ? undefined : { file: e.rel, name: e.name.slice(0, -'.log'.length), text };
    }),
  );
  return logs.filter((l): l is TaskLog => l !== undefined);
}

/**
 * `.user_uploaded/*` by name, then the images at the root by name: the order the published names (`<n>.<ext>`)
 * were always given in, so their URLs stay.
 */
async function readUploads(sfs: SessionFs, entries: SafeEntry[]): Promise<Upload[]> {
  const listed = await Promise.all(
    entries.map(async (e): Promise<Upload | undefined> => {
      const size = await fileSize(sfs, e.rel);
      if (size === undefined) return undefined;
      const mediaType = mediaTypeOf(e.name);
      return { file: e.rel, name: e.name, size, mediaType, isImage: RASTER_EXTENSIONS.has(mediaType) };
    }),
  );
  const uploads = listed.filter((u): u is Upload => u !== undefined);
  const inFolder = (u: Upload) => u.file.includes('/');
  const byName = (a: Upload, b: Upload) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return [...uploads.filter(inFolder).sort(byName), ...uploads.filter((u) => !inFolder(u)).sort((a, b) => a.name.localeCompare(b.name))];
}

/** `scratch/` files that are no artifact: every one listed with its size; text kept (bounded) when it looks like text. */
async function readScratch(sfs: SessionFs, entries: SafeEntry[]): Promise<ScratchFile[]> {
  const read = await Promise.all(
    entries.map(async (e): Promise<ScratchFile | undefined> => {
      const got = await readBytes(sfs, e.rel, MAX_SCRATCH_TEXT_BYTES);
      if (!got) return undefined;
      const file: ScratchFile = { file: e.rel, size: got.size };
      if (looksLikeText(got.bytes, got.size > got.bytes.length)) file.text = decodeText(sfs, e.rel, got.bytes, got.size);
      return file;
    }),
  );
  return read.filter((f): f is ScratchFile => f !== undefined);
}

const EPOCH_MS = /(\d{13})(?=\.[a-z0-9]+$)/i;

/** Screenshots, page texts and click marks of the browser subagent, by the time in their names. */
async function readBrowserTrail(sfs: SessionFs, entries: SafeEntry[]): Promise<BrowserFile[]> {
  const read = await Promise.all(
    entries.map(async (e): Promise<BrowserFile | undefined> => {
      const kind: BrowserFile['kind'] = e.rel.startsWith('.system_generated/') ? 'click' : e.name.startsWith('dom_') ? 'page-text' : 'screenshot';
      const mediaType = mediaTypeOf(e.name);
      const ms = EPOCH_MS.exec(e.name);
      let file: BrowserFile;
      if (kind === 'page-text') {
        const got = await readBytes(sfs, e.rel, MAX_SCRATCH_TEXT_BYTES);
        if (!got) return undefined;
        file = { file: e.rel, name: e.name, kind, size: got.size, mediaType, isImage: false, text: decodeText(sfs, e.rel, got.bytes, got.size) };
      } else {
        const size = await fileSize(sfs, e.rel);
        if (size === undefined) return undefined;
        file = { file: e.rel, name: e.name, kind, size, mediaType, isImage: RASTER_EXTENSIONS.has(mediaType) };
      }
      if (ms?.[1]) file.at = Number(ms[1]);
      return file;
    }),
  );
  return read
    .filter((f): f is BrowserFile => f !== undefined)
    .sort((a, b) => (a.at ?? Infinity) - (b.at ?? Infinity) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** The files no reader shows, with what they are and their size. */
async function readNotShown(sfs: SessionFs, files: SessionFile[]): Promise<NotShownFile[]> {
  return Promise.all(
    files.map(async ({ entry, role }) => {
      const out: NotShownFile = { file: entry.rel, kind: notShownKind(entry.rel, role) };
      const size = await fileSize(sfs, entry.rel);
      if (size !== undefined) out.size = size;
      return out;
    }),
  );
}

function looksLikeText(bytes: Buffer, cut: boolean): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return false;
  if (isUtf8(bytes)) return true;
  // A cut may split a multi-byte character at the end: allow that much.
  return cut && isUtf8(bytes.subarray(0, Math.max(0, bytes.length - 3)));
}

const RESOLVED = /^(.+)\.resolved(?:\.(\d+))?$/;
const METADATA = /^(.+)\.metadata\.json$/;

/**
 * Artifacts (`*.md`, `*.metadata.json`, `*.resolved[.N]`, other files `classifyFile` calls artifacts), at the root and
 * in sub-folders, grouped by path without the suffix. Root ones first, by name (their order and so their slugs are
 * as they always were), then those in sub-folders by path.
 */
async function readArtifacts(sfs: SessionFs, entries: SafeEntry[]): Promise<Artifact[]> {
  const byName = new Map<string, Artifact>();
  const artifact = (name: string): Artifact => {
    let a = byName.get(name);
    if (!a) {
      a = { name, versions: [] };
      byName.set(name, a);
    }
    return a;
  };
  const folderOf = (rel: string) => rel.slice(0, rel.length - (rel.split('/').pop() ?? '').length);
  await Promise.all(
    entries.map(async (e) => {
      const folder = folderOf(e.rel);
      const meta = METADATA.exec(e.name);
      const resolved = RESOLVED.exec(e.name);
      if (meta?.[1]) {
        const raw = await readJsonObject(sfs, e);
        if (!raw) return;
        const md: ArtifactMetadata = { raw };
        const summary = str(raw.summary);
        const updatedAt = str(raw.updatedAt);
        const artifactType = str(raw.artifactType);
        if (summary !== undefined) md.summary = summary;
        if (updatedAt !== undefined) md.updatedAt = updatedAt;
        if (artifactType !== undefined) md.artifactType = artifactType;
        artifact(folder + meta[1]).metadata = md;
      } else if (resolved?.[1]) {
        const text = await readListedText(sfs, e, MAX_TEXT_BYTES);
        if (text === undefined) return;
        const version: ArtifactVersion = {
          file: e.rel,
          version: resolved[2] === undefined ? null : Number(resolved[2]),
          text,
        };
        artifact(folder + resolved[1]).versions.push(version);
      } else if (e.name.toLowerCase().endsWith('.md')) {
        const text = await readListedText(sfs, e, MAX_TEXT_BYTES);
        const a = artifact(e.rel);
        a.file = e.rel;
        if (text !== undefined) a.text = text;
      } else {
        // A code artifact kept on disk, say: its text kept (bounded) when it is text, for its page to show.
        const a = artifact(e.rel);
        a.file = e.rel;
        const got = await readBytes(sfs, e.rel, MAX_SCRATCH_TEXT_BYTES);
        if (got && looksLikeText(got.bytes, got.size > got.bytes.length)) a.text = decodeText(sfs, e.rel, got.bytes, got.size);
      }
    }),
  );
  const inFolder = (a: Artifact) => a.name.includes('/');
  const artifacts = [
    ...[...byName.values()].filter((a) => !inFolder(a)).sort((a, b) => a.name.localeCompare(b.name)),
    ...[...byName.values()].filter(inFolder).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  ];
  for (const a of artifacts) {
    // N ascending, the plain `.resolved` (the latest) last.
    a.versions.sort((x, y) => (x.version ?? Infinity) - (y.version ?? Infinity));
  }
  return artifacts;
}
