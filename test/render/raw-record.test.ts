/** Raw records for reading (issue 22): JSON pretty-printed with the same values, anything else exactly as read. */
import { describe, expect, it } from 'vitest';
import { PRETTY_NESTING, prettyRecord } from '../../src/lib/render/raw-record.ts';

describe('a raw record for reading', () => {
  it('pretty-prints a JSON record, two spaces a level, with the same values', () => {
    const raw = '{"step_index":96,"type":"CODE_ACTION","content":"Created At: x\\n[diff_block_start]\\n@@ -1 +1 @@","tool_calls":[{"name":"run_command","args":{"CommandLine":"ls"}}]}';
    const shown = prettyRecord(raw);
    expect(shown.pretty).toBe(true);
    expect(shown.text.split('\n')[1]).toBe('  "step_index": 96,');
    expect(shown.text).toContain('\n      "name": "run_command",');
    expect(JSON.parse(shown.text)).toEqual(JSON.parse(raw));
  });

  it('keeps a line that is not JSON exactly as read', () => {
    for (const raw of ['{"step_index": 3, "content": "torn', 'not json at all', '']) expect(prettyRecord(raw)).toEqual({ text: raw, pretty: false });
  });
});

describe('a raw record nested deep (issue 27)', () => {
  const nested = (depth: number) => `{"step_index":1,"tool_calls":[{"name":"run_command","args":{"Deep":${'['.repeat(depth)}1${']'.repeat(depth)}}}]}`;

  it('is pretty-printed up to PRETTY_NESTING levels and shown as written past them, never larger than linear', () => {
    const within = nested(PRETTY_NESTING - 5);
    expect(prettyRecord(within).pretty).toBe(true);
    for (const depth of [PRETTY_NESTING, 3_000, 5_000, 100_000]) {
      const raw = nested(depth);
      // 3,000 levels printed were 9 MB of indentation for a 6 KB line; 5,000 made JSON.stringify throw.
      expect(prettyRecord(raw), String(depth)).toEqual({ text: raw, pretty: false });
    }
  });
});
