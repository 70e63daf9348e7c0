/**
 * Transcript lines as the store keeps them: every distinct line ever seen in a transcript, once, in one order that
 * respects the order of every version seen. A line's identity is its hash plus how many identical lines came before
 * it in the same version (`dup`), so a byte-identical record written twice is kept twice.
 */
import { createHash } from 'node:crypto';

/** A line's identity within one transcript of one session. */
export interface LineIdentity {
  hash: string;
  dup: number;
}

/** The identity key of a line, for maps. */
export const identityKey = (id: LineIdentity): string => `${id.hash}:${id.dup}`;

/** The SHA-256 of a line's text (hex). */
export function lineHash(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

/** The identities of a version's lines, in order. */
export function identitiesOf(raws: readonly string[]): LineIdentity[] {
  const seen = new Map<string, number>();
  return raws.map((raw) => {
    const hash = lineHash(raw);
    const dup = seen.get(hash) ?? 0;
    seen.set(hash, dup + 1);
    return { hash, dup };
  });
}

/**
 * One order over the lines of `known` (kept as it is) and those of `version` not in it. A run of new lines goes
 * right after the known line that precedes it in `version`; a run that starts the version goes right before the
 * known line that follows it; a version sharing no line with `known` goes after it (it is newer: a rolling window
 * that moved past everything stored). A transcript that grew at its end gets its new lines at the end.
 */
export function unionOrder<T>(known: readonly T[], version: readonly T[], key: (item: T) => string): T[] {
  const knownKeys = new Set(known.map(key));
  const after = new Map<string, T[]>();
  let leading: T[] = [];
  let run: T[] | undefined;
  let anchor: string | undefined;
  for (const item of version) {
    const k = key(item);
    if (knownKeys.has(k)) {
      anchor = k;
      run = undefined;
      continue;
    }
    knownKeys.add(k);
    if (!run) {
      if (anchor === undefined) run = leading;
      else {
        run = after.get(anchor) ?? [];
        after.set(anchor, run);
      }
    }
    run.push(item);
  }
  const out: T[] = [];
  // No shared line at all: the version comes after everything known.
  const before = anchor === undefined ? undefined : firstKnownIn(version, known, key);
  for (const item of known) {
    if (before !== undefined && key(item) === before) for (const l of leading) out.push(l);
    out.push(item);
    const run = after.get(key(item));
    if (run) for (const l of run) out.push(l);
  }
  if (before === undefined) for (const l of leading) out.push(l);
  return out;
}

/** The key of the first line of `version` that `known` holds. */
function firstKnownIn<T>(version: readonly T[], known: readonly T[], key: (item: T) => string): string | undefined {
  const knownKeys = new Set(known.map(key));
  for (const item of version) if (knownKeys.has(key(item))) return key(item);
  return undefined;
}
