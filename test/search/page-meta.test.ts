/**
 * What a page tells the search index about itself (src/lib/search/page-meta.ts): result titles that say where the
 * hit is, the outcome line and status, the session and outcome filters, and a checkpoint's words without the JSON
 * records it quotes.
 */
import { describe, expect, it } from 'vitest';
import { checkpointSearchText, sessionSearchMeta, stepSearchMeta } from '../../src/lib/search/page-meta.ts';

const session = { title: 'Add rate limiting to the public API.', prefix: '04c6284a' };
const row = { key: '11', type: 'PLANNER_RESPONSE', tools: [] as string[], summary: '', error: false };

describe('stepSearchMeta', () => {
  it('names a call by its tool and what it acted on, with its outcome', () => {
    const meta = stepSearchMeta(session, { ...row, tools: ['run_command'], outcome: { kind: 'command', status: 'ok', line: 'npm test · exit 0', target: 'npm test' } });
    expect(meta).toEqual({
      title: 'Add rate limiting to the public API. › step 11 · run_command npm test',
      outcome: 'npm test · exit 0',
      outcomeStatus: 'ok',
      outcomeFilters: [],
      session: 'Add rate limiting to the public API. · 04c6284a',
    });
  });

  it('names a result by the call it answers, and files a failure outside the sandbox under both outcomes', () => {
    const meta = stepSearchMeta(
      session,
      { ...row, key: '12', type: 'RUN_COMMAND', answers: '11', error: true, outcome: { kind: 'command', status: 'failed', line: 'git push · exit 1', target: 'git push\nmore', bypass: true } },
      'run_command',
    );
    expect(meta.title).toBe('Add rate limiting to the public API. › step 12 · output of run_command git push');
    expect(meta.outcomeStatus).toBe('failed');
    expect(meta.outcomeFilters).toEqual(['failed', 'outside sandbox']);
  });

  it('names other steps by their kind, an error step failed with its message, long titles cut', () => {
    expect(stepSearchMeta(session, { ...row, type: 'USER_INPUT' }).title).toBe('Add rate limiting to the public API. › step 11 · user request');
    const error = stepSearchMeta(session, { ...row, type: 'ERROR_MESSAGE', error: true, summary: 'The model is currently unreachable.' });
    expect([error.title, error.outcome, error.outcomeStatus, error.outcomeFilters]).toEqual([
      'Add rate limiting to the public API. › step 11 · error', 'The model is currently unreachable.', 'failed', ['failed'],
    ]);
    const long = stepSearchMeta({ title: 'x'.repeat(100), prefix: 'abcd1234' }, { ...row, tools: ['run_command', 'view_file'], outcome: { kind: 'command', status: 'ok', line: 'l', target: 'y'.repeat(200) } });
    expect(long.title).toBe(`${'x'.repeat(59)}… › step 11 · run_command ${'y'.repeat(89)}… (+1 more call)`);
  });

  it('titles a session page by its title, an artifact page by session and name', () => {
    expect(sessionSearchMeta(session).title).toBe('Add rate limiting to the public API.');
    expect(sessionSearchMeta(session, 'task.md').title).toBe('Add rate limiting to the public API. › task.md');
  });
});

describe('checkpointSearchText', () => {
  it('drops the marker, the fixed sentence and Markdown marks, and reads quoted records, whole or cut', () => {
    const whole = JSON.stringify({ step_index: 7, source: 'MODEL', content: 'Pushed the fix.\n\nDone.', tool_calls: [{ name: 'run_command', args: { CommandLine: 'git push' } }] });
    const cut = '{"step_index":8,"source":"MODEL","thinking":"The user says \\"Error: m';
    const content = [
      '{{ CHECKPOINT 3 }}',
      '**The earlier parts of this conversation have been truncated due to its long length. The following content summarizes. **',
      '### Previous Session Summary:',
      whole,
      cut,
      '<USER_REQUEST>\\nnot a record</USER_REQUEST>',
    ].join('\n');
    const text = checkpointSearchText(content);
    expect(text).toBe('Previous Session Summary:\nPushed the fix.\n\nDone.\nrun_command\ngit push\nThe user says "Error: m\n \\nnot a record');
    expect(text).not.toMatch(/step_index|CHECKPOINT|\*\*/);
  });
});
