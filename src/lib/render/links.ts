/**
 * Where a link written in a transcript or an artifact leads on this site. The model links files by their path on
 * the user's machine (`[plan](file:///C:/Users/…/.gemini/antigravity/brain/<uuid>/implementation_plan.md)`), which
 * no reader of the archive can open: the sanitiser used to drop such an `href` and leave an `<a>` that looked like a
 * link and led nowhere (1,250 on the real sessions). Now a link to a file of the session's own folder goes to the
 * archived copy (an artifact's page, a published upload), a web link stays a link, and any other target is shown
 * as text beside the link's words, so the reader still sees where it pointed. Pure: no Astro import.
 */
import { urls } from '../urls.ts';

/** What the archive publishes of one session's folder, as the links need it. */
export interface SessionFiles {
  sessionId: string;
  /** Root artifacts: file name (`implementation_plan.md`) and page slug. */
  artifacts: ReadonlyArray<{ name: string; slug: string }>;
  /** Uploads: path inside the session folder and, when published, the served file name. */
  uploads: ReadonlyArray<{ file: string; served?: string }>;
}

/** How the Markdown renderer resolves links for one session: a cache key and the lookup. */
export interface LinkContext {
  /** Changes when any resolution could change (the session and what it publishes). */
  key: string;
  /** The site URL for a link's target, or undefined when it is not a file the archive publishes. */
  resolve: (url: string) => string | undefined;
}

/**
 * What a link becomes: a link to `href`; its words followed by the target as text; or, for a target that runs code
 * or embeds content (`javascript:`, `vbscript:`, `data:`), its words alone (the raw record keeps the target).
 */
export type LinkOutcome = { href: string } | { text: string } | { removed: true };

/** Web and mail links stay links (they lead somewhere a reader can follow). */
const KEPT = /^(?:https?:|mailto:)/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Targets never written out, not even as text: they run code or carry a whole document (the sanitiser's list). */
const UNSAFE = /^\s*(?:javascript|vbscript|data):/i;
/** A Windows drive (`C:`), which a scheme test would take for a scheme. */
const DRIVE = /^[a-z]:[\\/]/i;

function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The path inside session `sessionId`'s folder that `url` names, or undefined when it names no file there:
 * `file:///…/brain/<uuid>/<rest>` (any product, any OS, percent-encoded or not), the same as a bare path, or a
 * relative path (`./task.md`, `task.md`), which the artifacts themselves use for their siblings.
 */
export function sessionRelativePath(url: string, sessionId: string): string | undefined {
  let path = url.trim();
  const isFile = /^file:/i.test(path);
  if (isFile) path = path.replace(/^file:(?:\/\/[^/]*)?/i, '');
  else if (SCHEME.test(path) && !DRIVE.test(path)) return undefined;
  path = decode(path.replace(/[?#].*$/s, '')).replace(/\\/g, '/');
  if (path === '') return undefined;
  const marker = `/brain/${sessionId.toLowerCase()}/`;
  const at = path.toLowerCase().indexOf(marker);
  if (at >= 0) return path.slice(at + marker.length).replace(/^\/+/, '') || undefined;
  if (isFile || path.startsWith('/') || DRIVE.test(path)) return undefined;
  const relative = path.replace(/^(?:\.\/)+/, '');
  return relative.startsWith('../') || relative === '' ? undefined : relative;
}

/** The link context of one session: its artifacts (and their `.resolved` versions) and published uploads. */
export function sessionLinks(files: SessionFiles): LinkContext {
  const artifacts = new Map(files.artifacts.map((a) => [a.name, a.slug]));
  const uploads = new Map(files.uploads.filter((u) => u.served !== undefined).map((u) => [u.file.replace(/\\/g, '/'), u.served as string]));
  return {
    key: `${files.sessionId}\0${files.artifacts.map((a) => `${a.name}\u0001${a.slug}`).join('\0')}\0${[...uploads].flat().join('\0')}`,
    resolve(url) {
      const rest = sessionRelativePath(url, files.sessionId);
      if (rest === undefined) return undefined;
      const artifact = artifacts.get(rest) ?? artifacts.get(rest.replace(/\.resolved(?:\.\d+)?$/, ''));
      if (artifact !== undefined) return urls.artifact(files.sessionId, artifact);
      const upload = uploads.get(rest);
      return upload !== undefined ? urls.upload(files.sessionId, upload) : undefined;
    },
  };
}

/** What a link to `url` becomes: kept when it leads off-site, the archived copy of a session file, else text. */
export function linkOutcome(url: string, links: LinkContext | undefined): LinkOutcome {
  if (KEPT.test(url.trim())) return { href: url };
  if (UNSAFE.test(url)) return { removed: true };
  const archived = links?.resolve(url);
  return archived !== undefined ? { href: archived } : { text: url };
}
