/**
 * Everything in a session folder besides the transcripts: step outputs, messages, task logs, root artifacts and
 * their versions, scratch files, uploads. All access goes through session-fs.ts (confined, problems not throws).
 */
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
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
const MAX_SCRATCH_DEPTH = 8;


/** What the inventory found. */
export interface Inventory {
  stepFiles: StepFiles[];
  artifacts: Artifact[];
  messages: Message[];
  taskLogs: TaskLog[];
  uploads: Upload[];
  scratch: ScratchFile[];
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

/** Read the whole inventory of a session folder. */
export async function readInventory(sfs: SessionFs): Promise<Inventory> {
  const [stepFiles, root, messages, taskLogs, userUploads, scratch] = await Promise.all([
    readStepFiles(sfs),
    readRoot(sfs),
    readMessages(sfs),
    readTaskLogs(sfs),
    readUploads(sfs, '.user_uploaded'),
    readScratch(sfs, 'scratch', 0),
  ]);
  return {
    stepFiles,
    artifacts: root.artifacts,
    messages,
    taskLogs,
    uploads: [...userUploads, ...root.images],
    scratch,
  };
}

async function readStepFiles(sfs: SessionFs): Promise<StepFiles[]> {
  const dirs = (await listDir(sfs, '.system_generated/steps')).filter((e) => e.kind === 'dir' && /^\d+$/.test(e.name));
  const out = await Promise.all(
    dirs.map(async (d): Promise<StepFiles> => {
      const files: StepFiles = { index: Number(d.name) };
      for (const entry of await listDir(sfs, d.rel)) {
        if (entry.kind !== 'file') continue;
        if (entry.name === 'output.txt' || entry.name === 'content.md') {
          const text = await readListedText(sfs, entry, MAX_TEXT_BYTES);
          if (text === undefined) continue;
          if (entry.name === 'output.txt') files.output = { file: entry.rel, text };
          else files.contentMd = { file: entry.rel, text };
        }
      }
      return files;
    }),
  );
  return out.sort((a, b) => a.index - b.index);
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
    if (obj) return obj;
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
async function readMessages(sfs: SessionFs): Promise<Message[]> {
  const entries = (await listDir(sfs, '.system_generated/messages')).filter(
    (e) => e.kind === 'file' && e.name.endsWith('.json') && e.name !== 'cursor.json' && e.name !== 'read.json',
  );
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

async function readTaskLogs(sfs: SessionFs): Promise<TaskLog[]> {
  const entries = (await listDir(sfs, '.system_generated/tasks')).filter(
    (e) => e.kind === 'file' && e.name.endsWith('.log'),
  );
  const logs = await Promise.all(
    entries.map(async (e) => {
      const text = await readListedText(sfs, e, MAX_TEXT_BYTES);
      return text === undefined ? undefined : { file: e.rel, name: e.name.slice(0, -'.log'.length), text };
    }),
  );
  return logs.filter((l): l is TaskLog => l !== undefined);
}

async function readUploads(sfs: SessionFs, folder: string): Promise<Upload[]> {
  const out: Upload[] = [];
  for (const e of await listDir(sfs, folder)) {
    if (e.kind !== 'file') continue;
    const size = await fileSize(sfs, e.rel);
    if (size === undefined) continue;
    const mediaType = mediaTypeOf(e.name);
    out.push({ file: e.rel, name: e.name, size, mediaType, isImage: RASTER_EXTENSIONS.has(mediaType) });
  }
  return out;
}

/** `scratch/`: every file listed with its size; text kept (bounded) when it looks like text. */
async function readScratch(sfs: SessionFs, folder: string, depth: number): Promise<ScratchFile[]> {
  const out: ScratchFile[] = [];
  for (const e of await listDir(sfs, folder)) {
    if (e.kind === 'dir') {
      if (depth < MAX_SCRATCH_DEPTH) out.push(...(await readScratch(sfs, e.rel, depth + 1)));
      continue;
    }
    const got = await readBytes(sfs, e.rel, MAX_SCRATCH_TEXT_BYTES);
    if (!got) continue;
    const file: ScratchFile = { file: e.rel, size: got.size };
    if (looksLikeText(got.bytes, got.size > got.bytes.length)) file.text = decodeText(sfs, e.rel, got.bytes, got.size);
    out.push(file);
  }
  return out;
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

/** Root files: artifacts (`*.md`, `*.metadata.json`, `*.resolved[.N]`) and uploaded images. */
async function readRoot(sfs: SessionFs): Promise<{ artifacts: Artifact[]; images: Upload[] }> {
  const entries = (await listDir(sfs, '.')).filter((e) => e.kind === 'file');
  const byName = new Map<string, Artifact>();
  const artifact = (name: string): Artifact => {
    let a = byName.get(name);
    if (!a) {
      a = { name, versions: [] };
      byName.set(name, a);
    }
    return a;
  };
  const images: Upload[] = [];
  await Promise.all(
    entries.map(async (e) => {
      const meta = METADATA.exec(e.name);
      const resolved = RESOLVED.exec(e.name);
      const mediaType = mediaTypeOf(e.name);
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
        artifact(meta[1]).metadata = md;
      } else if (resolved?.[1]) {
        const text = await readListedText(sfs, e, MAX_TEXT_BYTES);
        if (text === undefined) return;
        const version: ArtifactVersion = {
          file: e.rel,
          version: resolved[2] === undefined ? null : Number(resolved[2]),
          text,
        };
        artifact(resolved[1]).versions.push(version);
      } else if (e.name.toLowerCase().endsWith('.md')) {
        const text = await readListedText(sfs, e, MAX_TEXT_BYTES);
        const a = artifact(e.name);
        a.file = e.rel;
        if (text !== undefined) a.text = text;
      } else if (mediaType.startsWith('image/')) {
        const size = await fileSize(sfs, e.rel);
        if (size !== undefined) images.push({ file: e.rel, name: e.name, size, mediaType, isImage: RASTER_EXTENSIONS.has(mediaType) });
      } else {
        // Any other root file (a code artifact kept on disk, say): listed as an artifact without text.
        artifact(e.name).file = e.rel;
      }
    }),
  );
  const artifacts = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  for (const a of artifacts) {
    // N ascending, the plain `.resolved` (the latest) last.
    a.versions.sort((x, y) => (x.version ?? Infinity) - (y.version ?? Infinity));
  }
  images.sort((a, b) => a.name.localeCompare(b.name));
  return { artifacts, images };
}
