/**
 * Every string in a value (object keys included), walked without recursion: hostile sessions hold JSON nested
 * 10 000 levels deep, which overflows `JSON.stringify` and any recursive walk.
 */
export function* allStrings(value: unknown): Generator<string> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') yield item;
    else if (Array.isArray(item)) stack.push(...item);
    else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        yield key;
        stack.push(child);
      }
    }
  }
}

/** True when some string inside `value` contains `needle`. */
export function containsString(value: unknown, needle: string): boolean {
  for (const s of allStrings(value)) if (s.includes(needle)) return true;
  return false;
}
