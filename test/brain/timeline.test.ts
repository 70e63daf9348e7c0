import { describe, expect, it } from 'vitest';
import { keys, readCase, where } from './helpers.ts';

const C = '.system_generated/logs/transcript.jsonl';
const F = '.system_generated/logs/transcript_full.jsonl';

describe('merged timeline', () => {
  it('gives reused indexes their own keys after a rewind', async () => {
    const s = await readCase('rewind');
    expect(keys(s)).toEqual(['0', '1', '2', '3', '2-1', '3-1', '4']);
    const reused = s.steps.find((st) => st.key === '2-1');
    expect(reused).toMatchObject({ index: 2, occurrence: 1, type: 'USER_INPUT', origin: 'both' });
    expect(s.steps.find((st) => st.key === '3-1')?.content).toBe('new answer');
    expect(s.steps.map((st) => st.position)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(s.problems).toEqual([]);
  });

  it('keeps what only one file holds when the windows differ', async () => {
    const s = await readCase('windows-differ');
    expect(keys(s)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
    expect(s.steps.map((st) => st.origin)).toEqual(['full', 'full', 'full', 'both', 'both', 'both', 'compact', 'compact']);
    expect(s.steps[3]?.sources.map((r) => `${r.transcript}:${r.line}`)).toEqual(['compact:1', 'full:4']);
  });

  it('reports torn lines with file and line and keeps the compact copy of those steps', async () => {
    const s = await readCase('torn-line');
    expect(where(s)).toEqual([`bad-line ${F}:3`, `bad-line ${F}:5`]);
    expect(s.problems[0]?.message).toContain('starts inside a record');
    expect(keys(s)).toEqual(['0', '1', '2', '3', '4']);
    expect(s.steps.map((st) => st.origin)).toEqual(['both', 'both', 'compact', 'both', 'compact']);
  });

  it('rebuilds missing transcripts from chunk slices without boundary problems', async () => {
    const s = await readCase('chunks-only');
    expect(keys(s)).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(s.steps.every((st) => st.origin === 'both')).toBe(true);
    expect(s.steps[5]?.content).toBe('chunked reply number 5');
    expect(s.problems.map((p) => p.kind)).toEqual(['notice', 'notice']);
    expect(s.transcriptFiles.every((f) => f.startsWith('.system_generated/logs/chunks/'))).toBe(true);
    // Each record is credited to the chunk file and line where it starts.
    const first = s.steps[0]?.sources.find((r) => r.transcript === 'compact');
    expect(first).toMatchObject({ file: '.system_generated/logs/chunks/transcript/00000000.jsonl', line: 1 });
    const second = s.steps[1]?.sources.find((r) => r.transcript === 'compact');
    expect(second?.file).toBe('.system_generated/logs/chunks/transcript/00000001.jsonl');
    expect(second?.line).toBe(2);
    expect(JSON.parse(second?.raw ?? '')).toMatchObject({ step_index: 1 });
  });

  it('decodes JSON-encoded compact arguments to native values', async () => {
    const s = await readCase('json-encoded-args');
    expect(s.steps[1]?.toolCalls).toEqual([
      {
        name: 'run_command',
        args: {
          CommandLine: 'ls -la',
          Cwd: '/home/u/proj',
          WaitMsBeforeAsync: 500,
          SafeToAutoRun: true,
          Extra: { a: [1, 2] },
          Nothing: null,
          Plain: 'not json',
        },
        truncatedArgs: [],
      },
    ]);
  });

  it('lets the full record win and marks what compact-only steps still have cut', async () => {
    const s = await readCase('truncation');
    const [, one, two] = s.steps;
    expect(one?.origin).toBe('both');
    expect(one?.truncatedFields).toEqual([]);
    expect(one?.content).toBe(`full content ${'y'.repeat(40)}`);
    expect(one?.toolCalls[0]?.args.CodeContent).toBe(`line one\nline "two"\n${'x'.repeat(50)}`);
    expect(one?.toolCalls[0]?.args.Overwrite).toBe(true);
    expect(two?.origin).toBe('compact');
    expect(two?.truncatedFields).toEqual(['content', 'tool_calls']);
    expect(two?.toolCalls[0]?.truncatedArgs).toEqual(['ReplacementChunks', 'CodeContent']);
    expect(two?.toolCalls[0]?.args.TargetFile).toBe('/p/b.txt');
    expect(two?.toolCalls[0]?.args.CodeContent).toBe('line one\nline "tw\n<truncated 60 bytes>');
    expect(two?.toolCalls[0]?.args.ReplacementChunks).toBe('[{"a":"b\n<truncated 99 bytes>');
  });

  it('collapses RUNNING then DONE into one step, the later record winning', async () => {
    const s = await readCase('running-then-done');
    expect(keys(s)).toEqual(['0', '2', '3']);
    const two = s.steps[1];
    expect(two).toMatchObject({ status: 'DONE', content: 'finished', exitCode: 0 });
    expect(two?.sources.map((r) => `${r.transcript}:${r.line}`)).toEqual(['compact:2', 'compact:4', 'full:2', 'full:4']);
  });

  it('keeps unknown types, statuses, fields, error fields and records that are not steps', async () => {
    const s = await readCase('unknown-types');
    const odd = s.steps[1];
    expect(odd).toMatchObject({ type: 'HOLOGRAM_CALL', status: 'PONDERING', source: 'ORACLE' });
    expect(odd?.extra).toEqual({ mystery: { depth: 3 } });
    expect(s.steps[2]).toMatchObject({ status: 'ERROR', error: 'command failed', errorCode: 'E42', exitCode: 2 });
    expect(s.steps.slice(4).map((st) => [st.key, st.type])).toEqual([
      ['-1', 'INVALID_RECORD'],
      ['-1-1', 'INVALID_RECORD'],
    ]);
    expect(where(s)).toEqual([`bad-record ${F}:5`, `bad-record ${F}:6`]);
    expect(s.meta.errorCount).toBe(2);
  });

  it('reads BOM, mixed CRLF and invalid UTF-8', async () => {
    const s = await readCase('crlf-bom');
    expect(keys(s)).toEqual(['0', '1', '2']);
    expect(s.steps[1]?.content).toBe('café');
    expect(s.steps[2]?.content).toBe('bad \uFFFD here');
    expect(s.steps.every((st) => st.sources.every((r) => !r.raw.endsWith('\r') && !r.raw.startsWith('\uFEFF')))).toBe(true);
    expect(where(s)).toEqual([`bad-encoding ${C}:3`]);
  });

  it('reads an empty session without steps or problems', async () => {
    const s = await readCase('empty-session');
    expect(s.steps).toEqual([]);
    expect(s.problems).toEqual([]);
    expect(s.meta.stepCount).toBe(0);
    expect(s.meta.title).toBe(s.id);
  });
});

describe('step files', () => {
  it('attaches output.txt and content.md, marking output already in the content', async () => {
    const s = await readCase('output-duplicate');
    const three = s.steps.find((st) => st.key === '3');
    const five = s.steps.find((st) => st.key === '5');
    expect(three?.output).toEqual({
      file: '.system_generated/steps/3/output.txt',
      text: 'PASS 12 tests\nall good\n\n',
      duplicateOfContent: true,
    });
    expect(five?.output?.duplicateOfContent).toBe(false);
    expect(five?.contentMd).toEqual({ file: '.system_generated/steps/5/content.md', text: '# Step 5 notes\n' });
    expect(s.unattachedStepFiles?.map((f) => f.index)).toEqual([9]);
  });
});
