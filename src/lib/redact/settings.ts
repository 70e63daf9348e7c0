/**
 * Whether redaction is on, and the version of what it does: what a build plans with. Apart from `index.ts` (which
 * loads secretlint and the patterns) so that a rebuild with nothing to do decides so without loading them.
 */
import { createRequire } from 'node:module';

const presetVersion: string = createRequire(import.meta.url)(
  '@secretlint/secretlint-rule-preset-recommend/package.json',
).version;

/** Changes whenever redaction output may change (our patterns, or the secretlint preset); goes into content digests. */
export const REDACTOR_VERSION = `6+secretlint-preset-${presetVersion}`;

/** Redaction is on unless `ARCHIVE_REDACT` is `off`, `0`, `false` or `no` (any case). */
export function redactionEnabledFromEnv(env: Record<string, string | undefined> = process.env): boolean {
  const value = env.ARCHIVE_REDACT?.trim().toLowerCase();
  return !(value === 'off' || value === '0' || value === 'false' || value === 'no');
}
