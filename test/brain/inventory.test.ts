import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { caseId, casesDir, readCase, where } from './helpers.ts';

const temps: string[] = [];
afterAll(async () => {
  for (const t of temps) {
    await fs.chmod(t, 0o755).catch(() => {});
    await fs.rm(t, { recursive: true, force: true });
  }
});

async function tempCopy(name: string): Promise<{ home: string; session: string }> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), `brain-${name}-`));
  temps.push(tmp);
  await fs.cp(path.join(casesDir, name), tmp, { recursive: true });
  return { home: tmp, session: path.join(tmp, 'antigravity/brain', caseId(18)) };
}

describe('session inventory', () => {
  it('reads artifacts with metadata and versions in order', async () => {
    const s = await readCase('artifacts-versions');
    // broken.md has only a metadata file that does not parse: reported, not listed.
    expect(s.artifacts.map((a) => a.name)).toEqual(['script.js', 'task.md']);
    const task = s.artifacts.find((a) => a.name === 'task.md');
    expect(task?.text).toBe('# Task\n- [x] done\n');
    expect(task?.metadata).toMatchObject({ summary: 'The task list', artifactType: 'ARTIFACT_TYPE_TASK' });
    expect(task?.metadata?.raw.userFacing).toBe(true);
    expect(task?.versions.map((v) => [v.file, v.version])).toEqual([
      ['task.md.resolved.0', 0],
      ['task.md.resolved.2', 2],
      ['task.md.resolved.10', 10],
      ['task.md.resolved', null],
    ]);
    const script = s.artifacts.find((a) => a.name === 'script.js');
    expect(script).toMatchObject({ metadata: { summary: 'A script kept only as metadata' } });
    expect(script?.file).toBeUndefined();
    expect(where(s)).toEqual(['bad-json broken.md.metadata.json']);
  });

  it('reads messages (not cursor.json/read.json) and task logs', async () => {
    const s = await readCase('messages-tasks');
    expect(s.messages.map((m) => [m.content, m.hidden, m.title])).toEqual([
      ['hidden one', true, undefined],
      ['Run scan 1', false, 'Cron trigger #1'],
    ]);
    expect(s.taskLogs).toEqual([
      { file: '.system_generated/tasks/task-1.log', name: 'task-1', text: 'scan started\nscan done\n' },
    ]);
  });

  it('lists uploads and root images; scratch text kept, binary listed', async () => {
    const s = await readCase('uploads');
    expect(s.uploads.map((u) => [u.file, u.mediaType, u.isImage])).toEqual([
      ['.user_uploaded/data.csv', 'text/csv', false],
      ['.user_uploaded/screen.png', 'image/png', true],
      ['diagram.svg', 'image/svg+xml', false],
      ['uploaded_media_1769879246216.png', 'image/png', true],
    ]);
    expect(s.scratch).toEqual([
      { file: 'scratch/check.py', size: 12, text: 'print("hi")\n' },
      { file: 'scratch/out/data.bin', size: 5 },
    ]);
    expect(s.problems).toEqual([]);
  });

  it('never follows a symlink out of the session folder', async () => {
    const { home, session } = await tempCopy('uploads');
    const outside = path.join(home, 'secret.txt');
    await fs.writeFile(outside, 'TOP SECRET CONTENT');
    await fs.symlink(outside, path.join(session, 'scratch/leak.txt'));
    await fs.symlink(home, path.join(session, '.user_uploaded/escape'));
    await fs.symlink(outside, path.join(session, 'notes.md'));
    await fs.mkdir(path.join(session, '.system_generated/logs'), { recursive: true });
    await fs.rm(path.join(session, '.system_generated/logs/transcript.jsonl'));
    await fs.symlink(outside, path.join(session, '.system_generated/logs/transcript.jsonl'));
    await fs.symlink('check.py', path.join(session, 'scratch/inside-link.py'));
    const s = await readCase('uploads', home);
    expect(where(s).sort()).toEqual([
      'symlink-outside .system_generated/logs/transcript.jsonl',
      'symlink-outside .user_uploaded/escape',
      'symlink-outside notes.md',
      'symlink-outside scratch/leak.txt',
    ]);
    expect(JSON.stringify(s)).not.toContain('TOP SECRET CONTENT');
    expect(s.steps).toEqual([]);
    // A link that stays inside is followed.
    expect(s.scratch.find((f) => f.file === 'scratch/inside-link.py')?.text).toBe('print("hi")\n');
  });

  it('reports a dangling symlink inside as unreadable', async () => {
    const { home, session } = await tempCopy('uploads');
    await fs.symlink('gone.py', path.join(session, 'scratch/dangling.py'));
    const s = await readCase('uploads', home);
    expect(where(s)).toEqual(['unreadable scratch/dangling.py']);
    expect(s.scratch).toHaveLength(2);
  });

  // Root reads a mode-000 file anyway, so this one needs an ordinary user.
  it.skipIf(process.getuid?.() === 0)('reports unreadable files and goes on', async () => {
    const { home, session } = await tempCopy('uploads');
    await fs.chmod(path.join(session, 'scratch/check.py'), 0o000);
    const s = await readCase('uploads', home);
    expect(where(s)).toEqual(['unreadable scratch/check.py']);
    expect(s.steps).toHaveLength(1);
    expect(s.uploads).toHaveLength(4);
  });
});

describe('metadata', () => {
  it('takes request, title, local time, last model, mentions and workspace from the steps', async () => {
    const s = await readCase('metadata');
    expect(s.meta).toMatchObject({
      title: 'Fix the parser in @[src/parse.ts]',
      request: 'Fix the parser in @[src/parse.ts]\nand keep tests green',
      requests: ['Fix the parser in @[src/parse.ts]\nand keep tests green', 'Also see @[README.md] and @[src/parse.ts]'],
      model: 'Claude Sonnet 4.6 (Thinking)',
      localTime: '2026-07-01T12:00:00+02:00',
      mentionedFiles: ['src/parse.ts', 'README.md'],
      // The brain folder is used twice as Cwd, the project once: the agent's own folder is not the workspace.
      workspace: '/home/ana/parser',
      createdAt: '2026-07-01T10:00:00.000Z',
      firstAt: '2026-07-01T10:00:00.000Z',
      lastAt: '2026-07-01T10:01:30.000Z',
      durationMs: 90_000,
      stepCount: 6,
      toolCallCount: 3,
      toolCounts: { run_command: 3 },
      typeCounts: { USER_INPUT: 2, RUN_COMMAND: 3, PLANNER_RESPONSE: 1 },
      errorCount: 0,
    });
  });

  it('falls back to <user_information> for the workspace', async () => {
    const { home } = await tempCopy('metadata');
    const file = path.join(home, 'antigravity/brain', caseId(15), '.system_generated/logs/transcript_full.jsonl');
    const lines = (await fs.readFile(file, 'utf8')).split('\n').filter((l) => !l.includes('"Cwd"'));
    await fs.writeFile(file, lines.join('\n'));
    const s = await readCase('metadata', home);
    expect(s.meta.workspace).toBe('/home/ana/parser');
  });
});

describe('step folders named other than Antigravity names them (fixtures/cases/step-folder-names)', () => {
  it('attaches steps/2/ to step 2 and lists steps/02/ and steps/0003/ as files not shown, never dropping one', async () => {
    const s = await readCase('step-folder-names');
    // steps/02/ once overwrote steps/2/'s output in the same slot, and the other copy vanished without a word.
    expect(s.steps.find((x) => x.key === '2')?.output?.text).toContain('b.txt (the whole output)');
    expect(s.steps.find((x) => x.key === '3')?.contentMd).toBeUndefined();
    const notShown = (s.notShown ?? []).map((f) => f.file).sort();
    expect(notShown).toEqual(['.system_generated/steps/0003/content.md', '.system_generated/steps/02/output.txt']);
    expect(s.unattachedStepFiles).toBeUndefined();
  });
});
