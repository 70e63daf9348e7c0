/**
 * Settings checked before any work, each refused with a message, a hint and exit code 2 (README, "Exit codes"):
 * an ARCHIVE_BASE such as `/../../etc/` or `javascript:alert(1)` once ended in an Astro stack trace after the
 * snapshot, and a BRAIN_ROOTS of separators only (`:`, a script's `$A:$B` with both empty) silently meant "no
 * BRAIN_ROOTS" (the home folder's `~/.gemini`). The out dir has its own module (`out-dir.ts`).
 */
import { SETTING_EXIT_CODE } from './out-dir.ts';
import { BuildStop } from './stop.ts';

/** A path segment of ARCHIVE_BASE: URL-unreserved characters only, and not `.` or `..`. */
const BASE_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** Why ARCHIVE_BASE cannot be the site's base path, or undefined when it can (unset, `/`, `/tools/agy-archive/`). */
export function badBase(given: string | undefined): string | undefined {
  const raw = (given ?? '').trim();
  if (raw === '' || raw === '/') return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//')) return 'is a URL, not a path';
  const segments = raw.replace(/^\/+|\/+$/g, '').split('/');
  const bad = segments.find((s) => !BASE_SEGMENT.test(s) || s === '.' || s === '..');
  if (bad === undefined) return undefined;
  if (bad === '') return 'has an empty segment (//)';
  if (bad === '.' || bad === '..') return `has a "${bad}" segment`;
  return `has a segment with characters other than letters, digits and . _ ~ - ("${bad.slice(0, 40)}")`;
}

/** Stop the build (exit code 2) on a setting it cannot use; see the module comment. */
export function checkSettings(env: NodeJS.ProcessEnv): void {
  const base = badBase(env.ARCHIVE_BASE);
  if (base) {
    throw new BuildStop(`ARCHIVE_BASE=${JSON.stringify(env.ARCHIVE_BASE)} ${base}: nothing was built and nothing was changed.`, 'give the sub-path the site is served under, e.g. ARCHIVE_BASE=/tools/agy-archive/ (or leave it unset for /).', {
      exitCode: SETTING_EXIT_CODE,
    });
  }
  const roots = env.BRAIN_ROOTS;
  if (roots !== undefined && roots.trim() !== '' && roots.split(':').every((r) => r.trim() === '')) {
    throw new BuildStop(`BRAIN_ROOTS=${JSON.stringify(roots)} names no folder: nothing was built and nothing was changed.`, 'give BRAIN_ROOTS brain folders (:-separated), or leave it unset (or empty) to read every $GEMINI_HOME/*/brain/.', {
      exitCode: SETTING_EXIT_CODE,
    });
  }
}
