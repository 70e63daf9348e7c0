/**
 * The search document (src/lib/search/document.ts): one document per turn (in parts for a long turn), each step a
 * heading with its id and the words its page shows, a call and its output one section, the session's title a
 * word of its first document only, every filter value of the turn's steps, and the language of its text.
 */
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/lib/brain/types.ts';
import { searchDocument, searchDocumentGroups, searchDocumentHtml, stepHeading, type DocumentRow } from '../../src/lib/search/document.ts';

const session = { id: 's1', title: 'Rate limiting for the orders API', prefix: 's1pre', product: 'antigravity', workspace: '/code/api', createdAt: '2026-03-12T07:00:00Z' };

function step(key: string, type: string, fields: Partial<Step> = {}): Step {
  return { key, index: Number(key), occurrence: 0, position: Number(key), source: 'MODEL', type, status: 'DONE', toolCalls: [], extra: {}, truncatedFields: [], origin: 'full', sources: [], ...fields };
}

const rows: DocumentRow[] = [
  { key: '1', turn: 1, type: 'USER_INPUT', status: 'DONE', tools: [], summary: '', error: false, createdAt: '2026-03-12T07:01:00Z' },
  { key: '2', turn: 1, type: 'PLANNER_RESPONSE', status: 'DONE', tools: ['run_command'], summary: '', error: true, model: 'Gemini 3.1 Pro', outcome: { kind: 'command', status: 'failed', line: 'npm test · exit 1', target: 'npm test' } },
  { key: '3', turn: 1, type: 'RUN_COMMAND', status: 'DONE', tools: [], summary: '', error: true, answers: '2', outcome: { kind: 'command', status: 'failed', line: 'npm test · exit 1', target: 'npm test' } },
  { key: '4', turn: 2, type: 'USER_INPUT', status: 'DONE', tools: [], summary: '', error: false },
];
const steps = new Map<string, Step>([
  ['1', step('1', 'USER_INPUT', { source: 'USER_EXPLICIT', content: '<USER_REQUEST>\n请修复测试 please\n</USER_REQUEST>\n<ADDITIONAL_METADATA>The current local time is 7:01</ADDITIONAL_METADATA>' })],
  ['2', step('2', 'PLANNER_RESPONSE', { content: 'Running the tests.', toolCalls: [{ name: 'run_command', args: { CommandLine: 'npm test', Cwd: '/code/api', CodeContent: 'x'.repeat(5000), ReplacementContent: 'yyyyyyyy' }, truncatedArgs: [] }] })],
  ['3', step('3', 'RUN_COMMAND', { content: 'Created At: 2026-03-12T07:02:00Z\nCompleted At: 2026-03-12T07:02:05Z\nFAIL test/rate-limit.test.ts\nExpected 429, got 200' })],
  ['4', step('4', 'USER_INPUT', { content: 'thanks' })],
]);
const byKey = new Map(rows.map((r) => [r.key, r]));

function doc1(first = true) {
  const [group] = searchDocumentGroups(rows);
  return searchDocument({
    session, subagent: false, group: group!, rows: byKey, steps, first,
    turnUrl: '/sessions/s1/#turn-1', stepsUrl: '/sessions/s1/steps/',
  });
}

describe('searchDocumentGroups', () => {
  it('makes one document per turn, and parts of a long turn', () => {
    expect(searchDocumentGroups(rows).map((g) => [g.slug, g.keys])).toEqual([['turn-1', ['1', '2', '3']], ['turn-2', ['4']]]);
    const long = Array.from({ length: 5 }, (_, i) => ({ key: String(i), turn: 3 }));
    expect(searchDocumentGroups(long, 2).map((g) => [g.slug, g.part, g.keys.length])).toEqual([['turn-3', 1, 2], ['turn-3-part-2', 2, 2], ['turn-3-part-3', 3, 1]]);
    expect(searchDocumentGroups([{ key: '0' }])[0]?.slug).toBe('turn-0');
  });
});

describe('searchDocument', () => {
  it('makes a call and its output one section, headed by the step, its outcome and its id', () => {
    const doc = doc1();
    expect(doc.sections.map((s) => [s.id, s.heading])).toEqual([
      ['step-1', 'step 1 · user request'],
      ['step-2', 'step 2 · run_command npm test · exit 1'],
    ]);
    const call = doc.sections[1]!.text.join('\n');
    // The call's words and its output's words, without the transport header or the written code.
    expect(call).toContain('npm test');
    expect(call).toContain('Expected 429, got 200');
    expect(call).not.toContain('Created At');
    expect(call).not.toContain('xxxxxxxx');
    expect(call).not.toContain('yyyyyyyy');
  });

  it('indexes the request without the harness wrappers, the title on the first document only, in its language', () => {
    const doc = doc1();
    expect(doc.sections[0]!.text).toEqual(['请修复测试 please']);
    expect(doc.lead).toBe(session.title);
    expect(doc1(false).lead).toBeUndefined();
    expect(doc.lang).toBe('zh');
    expect(doc.meta).toMatchObject({ title: 'Rate limiting for the orders API › Turn 1: 请修复测试 please', turn: '/sessions/s1/#turn-1', steps: '/sessions/s1/steps/', session: 'Rate limiting for the orders API · s1pre' });
  });

  it("carries every filter value of the turn's steps", () => {
    expect(doc1().filters).toMatchObject({
      product: ['antigravity'], workspace: ['/code/api'], 'session kind': ['top-level'],
      'step type': ['USER_INPUT', 'PLANNER_RESPONSE', 'RUN_COMMAND'], tool: ['run_command'], model: ['Gemini 3.1 Pro'], outcome: ['failed'],
    });
  });

  it('writes its text as text: markup in a transcript is never markup in the document', () => {
    const evil = new Map(steps);
    evil.set('1', step('1', 'USER_INPUT', { content: '<img src=x onerror=alert(1)> & "q"' }));
    const [group] = searchDocumentGroups(rows);
    const html = searchDocumentHtml(searchDocument({ session: { ...session, title: '</title><script>x</script>' }, subagent: true, group: group!, rows: byKey, steps: evil, first: true, turnUrl: '/t/', stepsUrl: '/s/' }));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;');
    expect(html).toContain('<h2 id="step-2">step 2 · run_command npm test · exit 1</h2>');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('data-pagefind-filter="session kind:subagent"');
  });
});

describe('stepHeading', () => {
  it('says how a step ended only when that adds to what it did', () => {
    const base = { key: '9', type: 'PLANNER_RESPONSE', tools: ['view_file'], summary: '', error: false };
    expect(stepHeading({ ...base, outcome: { kind: 'view', status: 'ok', line: 'src/a.ts lines 1–80', target: 'src/a.ts' } })).toBe('step 9 · view_file src/a.ts · lines 1–80');
    expect(stepHeading({ ...base, type: 'CHECKPOINT', tools: [] })).toBe('step 9 · checkpoint');
    // A long command is said once, cut, then how it ended.
    const long = `git commit -m "${'x'.repeat(150)}"`;
    const heading = stepHeading({ ...base, tools: ['run_command'], outcome: { kind: 'command', status: 'ok', line: `${long} · exit 0`, target: long } });
    expect(heading).toMatch(/^step 9 · run_command git commit -m "x+… · exit 0$/);
  });
});
