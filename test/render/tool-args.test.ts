import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/lib/brain/types.ts';
import { argBoolean, argNumber, argString, replacementChunks } from '../../src/lib/render/tool-args.ts';

const call = (name: string, args: Record<string, unknown>, truncatedArgs: string[] = []): ToolCall => ({ name, args, truncatedArgs });

describe('argument getters', () => {
  it('accept only the right types, and the string forms compact records used', () => {
    const args = { s: 'x', n: 40, ns: '41', b: true, bs: 'false', o: { a: 1 } };
    expect([argString(args, 's'), argString(args, 'n'), argString(null, 's'), argString('x', 'length')]).toEqual(['x', undefined, undefined, undefined]);
    expect([argNumber(args, 'n'), argNumber(args, 'ns'), argNumber(args, 's')]).toEqual([40, 41, undefined]);
    expect([argBoolean(args, 'b'), argBoolean(args, 'bs'), argBoolean(args, 'o')]).toEqual([true, false, undefined]);
  });
});

describe('replacementChunks', () => {
  it('gives the chunks of single and multi replace calls, and none for cut values', () => {
    expect(
      replacementChunks(call('replace_file_content', { TargetContent: 'a', ReplacementContent: 'b', StartLine: 40, EndLine: 42, AllowMultiple: false })),
    ).toEqual([{ targetContent: 'a', replacementContent: 'b', startLine: 40, endLine: 42, allowMultiple: false }]);
    expect(
      replacementChunks(
        call('multi_replace_file_content', {
          ReplacementChunks: [{ TargetContent: 'x', ReplacementContent: 'y', StartLine: 3 }, 'junk', { TargetContent: 'only' }],
        }),
      ),
    ).toEqual([{ targetContent: 'x', replacementContent: 'y', startLine: 3 }]);
    expect(replacementChunks(call('multi_replace_file_content', { ReplacementChunks: '[{"TargetContent":"x\n<truncated 99 bytes>' }, ['ReplacementChunks']))).toEqual([]);
  });
});
