/**
 * A bound on how deeply a parsed JSON value nests. `JSON.parse` reads any depth (V8's parser is not recursive), but
 * almost everything after it is: `JSON.stringify`, `String()` of an array, `structuredClone`, `v8.serialize`, the
 * redactor's walk, the pages. At 5,000 levels each of them throws `RangeError: Maximum call stack size exceeded`,
 * and a tool call whose argument the model nested 5,000 brackets deep made its whole session vanish from the site
 * (issue 27, exit 0, "0 problems"). So the reader keeps every value no deeper than `MAX_NESTING` as parsed and
 * each deeper part as its JSON text, with a problem naming the file and line: the record, its step and the rest of
 * the session render; the text is the value as written (compact JSON of what was parsed).
 *
 * The deepest value in the real sessions nests 7 levels (a compact record with its decoded arguments, in
 * real-brains 0043a8fc and real-eras 3adf6725); 100 leaves room for any real record and is far below the ~4,000
 * levels at which V8's recursive functions give up.
 */

/** The deepest nesting of objects and arrays the reader keeps as structure (the record itself is level 1). */
export const MAX_NESTING = 100;

/** Where a value was cut at the bound: the path to it (`tool_calls[0].args.Deep[0]…`) and how deep it went. */
export interface NestingCut {
  path: string;
  /** Levels of nesting of the whole value, counted from the record (the first `MAX_NESTING` are kept). */
  depth: number;
}

type Container = Record<string, unknown> | unknown[];

const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/** Path steps are named down to this level; deeper ones are `…` (the path of a cut is for a person to read). */
const NAMED_LEVELS = 6;

function childPath(path: string, parent: Container, key: string, depth: number): string {
  if (depth > NAMED_LEVELS) return path.endsWith('…') ? path : `${path}…`;
  if (Array.isArray(parent)) return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** Levels of nesting of `value` (0 for a string or number, 1 for `[]`), counting no further than `limit + 1`. */
export function nestingDepth(value: unknown, limit = MAX_NESTING): number {
  if (!isContainer(value)) return 0;
  let deepest = 1;
  const stack: Array<[Container, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    for (const child of Object.values(node)) {
      if (!isContainer(child)) continue;
      if (depth + 1 > deepest) deepest = depth + 1;
      if (deepest > limit) return deepest;
      stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/**
 * Replaces, in place, each object or array of `value` nested deeper than `max` levels by its JSON text (`jsonText`),
 * and returns where it did. A value within the bound is left untouched (one walk, no copy).
 */
export function boundNesting(value: unknown, max = MAX_NESTING): NestingCut[] {
  const cuts: NestingCut[] = [];
  if (!isContainer(value) || nestingDepth(value, max) <= max) return cuts;
  const stack: Array<[Container, number, string]> = [[value, 1, '']];
  while (stack.length > 0) {
    const [node, depth, path] = stack.pop()!;
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      if (!isContainer(child)) continue;
      const where = childPath(path, node, key, depth + 1);
      if (depth + 1 <= max) {
        stack.push([child, depth + 1, where]);
        continue;
      }
      // defineProperty, not assignment: a key `__proto__` that JSON.parse made a plain property must stay one.
      Object.defineProperty(node, key, { value: jsonText(child), writable: true, enumerable: true, configurable: true });
      cuts.push({ path: where, depth: depth + nestingDepth(child, Number.MAX_SAFE_INTEGER) });
    }
  }
  return cuts;
}

/**
 * `JSON.stringify(value)` for a value `JSON.parse` made, at any depth: the same text, built with a stack of its
 * own instead of recursion.
 */
export function jsonText(value: unknown): string {
  const out: string[] = [];
  const stack: Array<{ node: Container; keys: string[] | undefined; i: number }> = [];
  const open = (v: unknown): void => {
    if (!isContainer(v)) {
      out.push(JSON.stringify(v) ?? 'null');
      return;
    }
    const keys = Array.isArray(v) ? undefined : Object.keys(v);
    out.push(keys ? '{' : '[');
    stack.push({ node: v, keys, i: 0 });
  };
  open(value);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const { node, keys } = frame;
    const length = keys ? keys.length : (node as unknown[]).length;
    if (frame.i >= length) {
      out.push(keys ? '}' : ']');
      stack.pop();
      continue;
    }
    if (frame.i > 0) out.push(',');
    const i = frame.i++;
    if (keys) {
      out.push(JSON.stringify(keys[i]), ':');
      open((node as Record<string, unknown>)[keys[i]!]);
    } else open((node as unknown[])[i]);
  }
  return out.join('');
}

/** The sentence of a `too-deep` problem for the cuts of one record (line `line`). */
export function nestingMessage(line: number | undefined, cuts: readonly NestingCut[]): string {
  const first = cuts[0]!;
  const where = cuts.length === 1 ? `at ${first.path}` : `at ${first.path} and ${cuts.length - 1} more place${cuts.length === 2 ? '' : 's'}`;
  const deepest = cuts.reduce((most, c) => Math.max(most, c.depth), 0);
  return (
    `${line !== undefined ? `Line ${line}: a` : 'A'} value nests ${deepest.toLocaleString('en-US')} levels deep ${where}, ` +
    `past the ${MAX_NESTING} levels the archive keeps as structure; from level ${MAX_NESTING + 1} on it is kept as its JSON text.`
  );
}
