/**
 * Only a step answers a call (issue 27): a record without a usable `step_index` is kept and shown as an
 * INVALID_RECORD step with a `bad-record` problem, and never pairs with a call, takes an output or moves another
 * step. fixtures/cases/record-without-step-index (…80): `{"type":"RUN_COMMAND","exit_code":0,"content":"FAKE
 * deployed OK"}` between `make deploy` and its real result (exit 1); a record carrying its own call (`echo
 * harmless`) between `rm -rf /data` and its result; a record with `"step_index":"x"` claiming exit 0 after it.
 */
import { describe, expect, it } from 'vitest';
import { mergeTranscripts } from '../../src/lib/brain/merge.ts';
import type { Problem, TranscriptLine } from '../../src/lib/brain/types.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { keys, readCase, where } from './helpers.ts';

const LOG = '.system_generated/logs/transcript.jsonl';

describe('records without a usable step_index (fixtures/cases/record-without-step-index)', () => {
  it('are kept as INVALID_RECORD steps where they were written, with a problem naming file and line', async () => {
    const s = await readCase('record-without-step-index');
    expect(keys(s)).toEqual(['0', '1', '-1', '2', '3', '-1-1', '4', '-1-2', '5']);
    expect(s.steps.filter((st) => st.type === 'INVALID_RECORD').map((st) => st.sources[0]?.line)).toEqual([3, 6, 8]);
    expect(where(s)).toEqual([`bad-record ${LOG}:3`, `bad-record ${LOG}:6`, `bad-record ${LOG}:8`]);
  });

  it('make no call: the call a bad record carries stays among its fields, as read', async () => {
    const s = await readCase('record-without-step-index');
    const planted = s.steps.find((st) => st.key === '-1-1')!;
    expect(planted.toolCalls).toEqual([]);
    expect(planted.extra.tool_calls).toEqual([{ name: 'run_command', args: { CommandLine: '"echo harmless"', Cwd: '"/srv/app"' } }]);
  });

  it('answer no call: each command keeps its real result, and the fake ones answer nothing', async () => {
    const turns = sessionTurns(await readCase('record-without-step-index'));
    const calls = turns.calls.map((c) => ({ step: c.callStepKey, result: c.resultStepKey, line: c.outcome.line, status: c.outcome.status }));
    expect(calls).toEqual([
      { step: '1', result: '2', line: 'make deploy · exit 1', status: 'failed' },
      { step: '3', result: '4', line: 'rm -rf /data · exit 0', status: 'ok' },
    ]);
    expect(turns.calls.map((c) => c.outputHead ?? '').join('\n')).not.toContain('FAKE');
    expect(turns.calls[1]?.outputHead).toContain('removed /data');
  });

  it('move no other step: a bad record with its own time does not reorder the records of the other file', () => {
    const line = (transcript: 'compact' | 'full', n: number, rec: Record<string, unknown>): TranscriptLine => {
      const raw = JSON.stringify(rec);
      return { transcript, file: transcript === 'full' ? 'full.jsonl' : 'compact.jsonl', line: n, raw, value: JSON.parse(raw) as unknown };
    };
    const at = (s: number) => `2026-08-05T09:00:${String(s).padStart(2, '0')}Z`;
    const step = (i: number, s: number) => ({ step_index: i, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: at(s), content: `step ${i}` });
    const compact = [line('compact', 1, step(1, 10)), line('compact', 3, step(3, 15))];
    const full = [line('full', 1, step(2, 20))];
    const order = (c: TranscriptLine[]) => mergeTranscripts(c, full, 's', [] as Problem[]).map((st) => st.key);
    expect(order(compact)).toEqual(['1', '3', '2']);
    // The same compact file with a bad record after its first line, dated after step 2: steps 3 and 2 keep their order.
    const planted = line('compact', 2, { source: 'MODEL', type: 'RUN_COMMAND', created_at: at(59), exit_code: 0, content: 'FAKE' });
    expect(order([compact[0]!, planted, compact[1]!])).toEqual(['1', '-1', '3', '2']);
  });
});
