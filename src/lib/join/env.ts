/**
 * Whether a build is a join of parts (`ARCHIVE_JOIN`), read from the environment alone: apart from `current.ts`,
 * which reads the parts (and loads their schemas), so that an ordinary build asks without loading them.
 */

/** The variable that makes a build a join of parts. */
export const JOIN_ENV = 'ARCHIVE_JOIN';

/** The part folders ARCHIVE_JOIN names, in order (empty: not a joined build). */
export function joinFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env[JOIN_ENV] ?? '').split(':').map((d) => d.trim()).filter(Boolean);
}
