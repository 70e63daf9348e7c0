/**
 * The search document (src/lib/search/document.ts): one document per turn (in parts for a long turn), each step a
 * heading with its id and the words its page shows, a call and its output one section, the session's title a
 * word of its first document only, every filter value of the turn's steps, and the language of its text.
 */
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/lib/brain/types.ts';
import { searchDocument, searchDocumentGroups, searchDocumentHtml, stepHeading, turnHeading, type DocumentRow } from '../../src/lib/search/document.ts';

const session = { id: 's1', title: 'Rate limiting for the orders API', prefix: 's1pre', product: 'antigravity', workspace: '/code/api', createdAt: '2026-03-12T07:00:00Z' };

function step(key: string, type: string, fields: Partial<Step> = {}): Step {
  return { key, index: Number(key), occurrence: 0, position: Number(key), source: 'MODEL', type, status: 'DONE', toolCalls: [], extra: {}, truncatedFields: [], origin: 'full', sources: [], ...fields };
}

const rows: DocumentRow[] = [
  { key: '1', turn: 1, type: 'USER_INPUT', status: 'DONE', tools: [], summary: '', error: false, createdAt: '2026-03-12T07:01:00Z' },
  { key: '2', turn: 1, type: 'PLANNER_RESPONSE', status: 'DONE', tools: ['run_command'], summary: '', error: true, model: 'Gemini 3.1 Pro', outcome: { kind: 'command', status: 'failed', line: 'npm test · exit 1', target: 'npm test' } },
  { key: '3', turn: 1, type: 'RUN_COMMAND', status: 'DONE', tools: [], summary: '', error: true, failure: 'call', answers: '2', outcome: { kind: 'command', status: 'failed', line: 'npm test · exit 1', target: 'npm test' } },
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
    // The language of its text (a short request beside English words is English: its html lang, not how it is indexed).
    expect(doc.lang).toBe('en');
    expect(doc.meta).toMatchObject({ title: 'Rate limiting for the orders API › Turn 1: 请修复测试 please', turn: '/sessions/s1/#turn-1', steps: '/sessions/s1/steps/', session: 'Rate limiting for the orders API · s1pre' });
  });

  it("carries every filter value of the turn's steps", () => {
    expect(doc1().filters).toMatchObject({
      product: ['antigravity'], workspace: ['/code/api'], 'session kind': ['top-level'],
      'step type': ['USER_INPUT', 'PLANNER_RESPONSE', 'RUN_COMMAND'], tool: ['run_command'], model: ['Gemini 3.1 Pro'], outcome: ['failed call'],
    });
  });

  it('files a turn by the one failure count: an agent error is not a failed call', () => {
    const agentRows: DocumentRow[] = [
      { key: '1', turn: 1, type: 'USER_INPUT', status: 'DONE', tools: [], summary: '', error: false },
      { key: '2', turn: 1, type: 'ERROR_MESSAGE', status: 'DONE', tools: [], summary: '', error: true, failure: 'agent' },
    ];
    const [group] = searchDocumentGroups(agentRows);
    const doc = searchDocument({ session, subagent: false, group: group!, rows: new Map(agentRows.map((r) => [r.key, r])), steps: new Map(), first: true, turnUrl: '/t/', stepsUrl: '/s/' });
    expect(doc.filters.outcome).toEqual(['agent error']);
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

describe('what a search document leaves to the harness (issue 30)', () => {
  // As the real records hold them (d493099f, ca4322d4, 86033144): a reminder before a reply, a task's end as a system
  // message, a result with no call before it (the log starts mid-session), a cut JSON-encoded argument.
  const reminder = 'The following is an <EPHEMERAL_MESSAGE> not actually sent by the user. It is provided by the system as a set of reminders.\n\n<EPHEMERAL_MESSAGE>\n<bash_command_reminder>\nCRITICAL INSTRUCTION 1: (c) DO NOT use ls for listing, cat for viewing\n</bash_command_reminder>\n</EPHEMERAL_MESSAGE>';
  const taskEnd = 'The following is a <SYSTEM_MESSAGE> not actually sent by the user. It is provided by the system as important information to pay attention to.\n\n<SYSTEM_MESSAGE>\n[Message] timestamp=2026-08-17T14:24:47Z sender=ca43/task-132 priority=MESSAGE_PRIORITY_HIGH content=Task id "ca43/task-132" finished with result:\n\n\t\t\t\tThe command exited with code 0.\n\t\t\t\tOutput:\n\t\t\t\tReplaced 1 occurrences.\n</SYSTEM_MESSAGE>';
  const noteRows: DocumentRow[] = [
    { key: '10', turn: 0, type: 'GENERIC', status: 'DONE', tools: [], summary: '', error: false },
    { key: '11', turn: 0, type: 'EPHEMERAL_MESSAGE', status: 'DONE', tools: [], summary: '', error: false },
    { key: '12', turn: 0, type: 'SYSTEM_MESSAGE', status: 'DONE', tools: [], summary: '', error: false },
    { key: '13', turn: 0, type: 'CONVERSATION_HISTORY', status: 'DONE', tools: [], summary: '', error: false },
    { key: '14', turn: 0, type: 'PLANNER_RESPONSE', status: 'DONE', tools: ['notify_user', 'task_boundary'], summary: '', error: false },
  ];
  const noteSteps = new Map<string, Step>([
    ['10', step('10', 'GENERIC', { content: 'Created At: 2026-08-03T17:09:10+03:00\nCompleted At: 2026-08-03T17:09:10+03:00\n{"name":".agents","isDir":true}' })],
    ['11', step('11', 'EPHEMERAL_MESSAGE', { source: 'SYSTEM', content: reminder })],
    ['12', step('12', 'SYSTEM_MESSAGE', { source: 'SYSTEM', content: taskEnd })],
    ['13', step('13', 'CONVERSATION_HISTORY', { source: 'SYSTEM', content: '# Conversation History\nHere are the conversation IDs, titles, and summaries' })],
    ['14', step('14', 'PLANNER_RESPONSE', { toolCalls: [
      { name: 'notify_user', args: { Message: '"Added the log files to .gitignore.\\n\\nProceed."', PathsToReview: ['/code/.gitignore'] }, truncatedArgs: [] },
      { name: 'task_boundary', args: { ArtifactMetadata: '{"Summary":"Ignore *.log in .gitignore.\\n\\nThen commit.","ArtifactType":"ARTIFACT_TYPE_TASK"\n<truncated 120 bytes>', Questions: [{ question: 'Keep the "logs" folder?', options: ['yes'] }] }, truncatedArgs: ['ArtifactMetadata'] },
    ] })],
  ]);
  const [group] = searchDocumentGroups(noteRows);
  const doc = searchDocument({ session, subagent: false, group: group!, rows: new Map(noteRows.map((r) => [r.key, r])), steps: noteSteps, first: false, turnUrl: '/t/', stepsUrl: '/s/' });
  const words = doc.sections.flatMap((x) => [x.heading, ...x.text]).join('\n');

  it('leaves out the reminders and history, as the conversation folds them, and the step type they carry', () => {
    expect(doc.sections.map((x) => x.key)).toEqual(['10', '12', '14']);
    expect(words).not.toMatch(/CRITICAL INSTRUCTION|EPHEMERAL_MESSAGE|ephemeral|Conversation History/i);
    expect(doc.filters['step type']).toEqual(['GENERIC', 'SYSTEM_MESSAGE', 'PLANNER_RESPONSE']);
  });

  it('keeps what a system message carries, without its preamble, header or transport sentences', () => {
    expect(doc.sections[1]!.text).toEqual(['Task id "ca43/task-132" finished\nReplaced 1 occurrences.']);
    expect(words).not.toMatch(/not actually sent|priority=|The command exited/);
  });

  it('reads a result with no call before it without its transport header', () => {
    expect(doc.sections[0]!.text).toEqual(['{"name":".agents","isDir":true}']);
    expect(words).not.toContain('Created At');
  });

  it('decodes JSON-encoded argument values: one string literal, a cut object, the strings of an array of objects', () => {
    expect(words).toContain('Added the log files to .gitignore.\n\nProceed.');
    expect(words).toContain('Ignore *.log in .gitignore.\n\nThen commit.');
    expect(words).toContain('ARTIFACT_TYPE_TASK');
    expect(words).toContain('Keep the "logs" folder?');
    expect(words).toContain('/code/.gitignore');
    expect(words).not.toContain('\\n');
    expect(words).not.toContain('"Summary"');
  });
});

describe('turnHeading', () => {
  it('says which steps a later part of a long turn holds, not "(part 2)"', () => {
    expect(turnHeading(4, 'fix the build', 2, ['7141', '7180'])).toBe('Turn 4: fix the build (continued: steps 7141–7180)');
    expect(turnHeading(4, 'fix the build', 1, ['7101', '7140'])).toBe('Turn 4: fix the build');
    expect(turnHeading(0, undefined, 3, ['9'])).toBe('Before the first request (continued: step 9)');
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
