/**
 * Every file of a session folder is read by what it is (`classifyFile`): the browser subagent's trail, artifacts in
 * sub-folders, and everything else either shown or listed as not shown (issue 20, points 4, 5 and 7).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import { classifyFile, SHOWN_AT } from '../../src/lib/brain/inventory.ts';
import type { Session } from '../../src/lib/brain/types.ts';
import { artifactSlugs, summariseSession } from '../../src/lib/archive/summarise.ts';
import { placeImages } from '../../src/lib/conversation/images.ts';
import { recordingsOf, stepAtTime } from '../../src/lib/conversation/browser-trail.ts';
import { redactSession } from '../../src/lib/redact/index.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { projectRoot, readCase } from './helpers.ts';

const none = new Set<string>();

describe('classifyFile', () => {
  it('names what each kind of file is, and anything else unknown', () => {
    const roles = (paths: string[], files = new Set(paths)) => paths.map((p) => `${p} → ${classifyFile(p, files)}`);
    expect(
      roles([
        '.system_generated/logs/transcript.jsonl',
        '.system_generated/logs/chunks/transcript_full/00000001.jsonl',
        '.system_generated/logs/overview.txt',
        '.system_generated/steps/4/output.txt',
        '.system_generated/steps/4/content.md',
        '.system_generated/steps/4/trace.json',
        '.system_generated/messages/read.json',
        '.system_generated/messages/8a0c.json',
        '.system_generated/tasks/task-12.log',
        '.system_generated/click_feedback/click_feedback_1778306621003.png',
        '.system_generated/newkind/x.pb',
        '.tempmediaStorage/media_b1966f3f_1778306621211.png',
        '.tempmediaStorage/dom_1778306621003.txt',
        '.tempmediaStorage/other.bin',
        '.user_uploaded/screen.png',
        'task.md',
        'task.md.metadata.json',
        'task.md.resolved.3',
        'login_check_1782900058000.webp',
        'script.js',
        'browser/scratchpad_885wocnh.md',
        'browser/scratchpad_885wocnh.md.resolved.0',
        'docs/README.md',
        'docs/README.md.metadata.json',
        'scratch/fix.py',
        'scratch/fix.py.metadata.json',
        'scratch/brd.md',
        'notes/todo.txt',
      ]),
    ).toMatchInlineSnapshot(`
      [
        ".system_generated/logs/transcript.jsonl → transcript",
        ".system_generated/logs/chunks/transcript_full/00000001.jsonl → transcript",
        ".system_generated/logs/overview.txt → overview",
        ".system_generated/steps/4/output.txt → step-output",
        ".system_generated/steps/4/content.md → step-content",
        ".system_generated/steps/4/trace.json → unknown",
        ".system_generated/messages/read.json → message-state",
        ".system_generated/messages/8a0c.json → message",
        ".system_generated/tasks/task-12.log → task-log",
        ".system_generated/click_feedback/click_feedback_1778306621003.png → click",
        ".system_generated/newkind/x.pb → unknown",
        ".tempmediaStorage/media_b1966f3f_1778306621211.png → screenshot",
        ".tempmediaStorage/dom_1778306621003.txt → page-text",
        ".tempmediaStorage/other.bin → unknown",
        ".user_uploaded/screen.png → upload",
        "task.md → artifact-doc",
        "task.md.metadata.json → artifact-metadata",
        "task.md.resolved.3 → artifact-version",
        "login_check_1782900058000.webp → upload",
        "script.js → artifact-file",
        "browser/scratchpad_885wocnh.md → artifact-doc",
        "browser/scratchpad_885wocnh.md.resolved.0 → artifact-version",
        "docs/README.md → artifact-doc",
        "docs/README.md.metadata.json → artifact-metadata",
        "scratch/fix.py → artifact-file",
        "scratch/fix.py.metadata.json → artifact-metadata",
        "scratch/brd.md → scratch",
        "notes/todo.txt → unknown",
      ]
    `);
    // A Markdown file in a sub-folder is an artifact only with its metadata or versions beside it.
    expect(classifyFile('docs/README.md', none)).toBe('unknown');
  });
});

describe('the browser subagent trail (fixtures/cases/browser-trail)', () => {
  it('reads screenshots, page texts and click marks with the time in their names', async () => {
    const s = await readCase('browser-trail');
    expect(s.browserTrail?.map((f) => [f.kind, f.at, f.isImage])).toEqual([
      ['page-text', Date.parse('2026-07-01T10:00:30Z'), false],
      ['screenshot', Date.parse('2026-07-01T10:00:30.200Z'), true],
      ['click', Date.parse('2026-07-01T10:01:05Z'), true],
    ]);
    expect(s.browserTrail?.[0]?.text).toContain('<current_dom_explanation>');
    expect(s.notShown).toBeUndefined();
    expect(s.problems).toEqual([]);
  });

  it('places each at the step running at its time, and the recording at the call that named it', async () => {
    const s = await readCase('browser-trail');
    const rows = summariseSession(s, [], false, { id: s.id, product: s.product, root: '', dir: s.dir, mtimeMs: 0, ctimeMs: 0 }).session;
    // The look at 10:00:30 falls in the browser_subagent call (step 1, 10:00:10); the click at 10:01:05 after its result (step 2, 10:01:00).
    expect(rows.browserTrail?.map((f) => [f.kind, f.stepKey, f.served])).toEqual([
      ['page-text', '1', undefined],
      ['screenshot', '1', 'media_00000000-0000-4000-8000-000000000070_1782900030200.png'],
      ['click', '2', 'click_feedback_1782900065000.png'],
    ]);
    const recording = rows.uploads.find((u) => u.name.endsWith('.webp'));
    expect(recording?.served).toBeDefined();
    const turns = sessionTurns(s);
    const places = placeImages(rows.uploads, turns.turns, turns.calls, (c) => s.steps[c.callPosition]?.toolCalls[c.callIndex]?.args);
    const call = turns.calls.find((c) => c.name === 'browser_subagent');
    expect(places.calls[call?.id ?? '']?.map((u) => u.name)).toEqual(['login_check_1782900058000.webp']);
    expect(recordingsOf(rows.uploads, s.steps[1]?.toolCalls ?? []).map((u) => u.name)).toEqual(['login_check_1782900058000.webp']);
    expect(recordingsOf(rows.uploads, s.steps[3]?.toolCalls ?? [])).toEqual([]);
  });

  it('reads the scratchpad as an artifact with its versions, and redacts page text', async () => {
    const s = await readCase('browser-trail');
    const pad = s.artifacts.find((a) => a.name === 'browser/scratchpad_ab12cd34.md');
    expect(pad?.file).toBe('browser/scratchpad_ab12cd34.md');
    expect(pad?.versions.map((v) => v.file)).toEqual(['browser/scratchpad_ab12cd34.md.resolved.0', 'browser/scratchpad_ab12cd34.md.resolved']);
    const { session, redactions } = await redactSession(s);
    expect(session.browserTrail?.[0]?.text).toContain('[REDACTED:url-password]');
    expect(session.browserTrail?.[0]?.text).not.toContain('S3cretPassw0rd42');
    expect(redactions.map((r) => [r.file, r.kind])).toContainEqual(['.tempmediaStorage/dom_1782900030000.txt', 'url-password']);
  });

  it('places a file before every step at the first, and none without a dated step', () => {
    const steps = [{ key: '0' }, { key: '1', createdAt: '2026-07-01T10:00:00Z' }, { key: '2', createdAt: '2026-07-01T10:01:00Z' }];
    expect(stepAtTime(steps, Date.parse('2026-07-01T09:00:00Z'))).toBe('1');
    expect(stepAtTime(steps, Date.parse('2026-07-01T10:00:59Z'))).toBe('1');
    expect(stepAtTime(steps, Date.parse('2026-07-01T10:01:00Z'))).toBe('2');
    expect(stepAtTime([{ key: '0' }], 1)).toBeUndefined();
    expect(stepAtTime(steps, undefined)).toBeUndefined();
  });
});

describe('an artifact in a sub-folder (fixtures/cases/subfolder-artifact)', () => {
  it('is an artifact named by its path, with its metadata and versions, after the root ones', async () => {
    const s = await readCase('subfolder-artifact');
    expect(s.artifacts.map((a) => a.name)).toEqual(['docs-README.md', 'README.md', 'docs/README.md']);
    const docs = s.artifacts.find((a) => a.name === 'docs/README.md');
    expect(docs).toMatchObject({ file: 'docs/README.md', text: '# Docs\nHow to run it.\n', metadata: { summary: 'The project README in docs/' } });
    expect(docs?.versions.map((v) => [v.file, v.version])).toEqual([
      ['docs/README.md.resolved.0', 0],
      ['docs/README.md.resolved', null],
    ]);
    expect(s.notShown).toBeUndefined();
  });

  it("gets a slug no root artifact's can be, and root slugs stay as they were", () => {
    expect(artifactSlugs(['docs-README.md', 'README.md', 'docs/README.md'])).toEqual(['docs-README.md', 'README.md', 'docs~README.md']);
    expect(artifactSlugs(['a b.md', 'a-b.md', 'x/.hidden/a b.md'])).toEqual(['a-b.md', 'a-b.md-2', 'x~hidden~a-b.md']);
  });
});

describe('files not shown (fixtures/cases/unknown-files)', () => {
  it('lists every file no page shows, with what it is and its size', async () => {
    const s = await readCase('unknown-files');
    expect(s.notShown).toEqual([
      { file: '.system_generated/futurekind/state.pb', kind: 'unknown file (.pb) in .system_generated/futurekind/', size: 3 },
      { file: '.system_generated/steps/0/trace.json', kind: 'unknown file (.json) in .system_generated/steps/0/', size: 12 },
      { file: 'notes/todo.txt', kind: 'unknown file (.txt) in notes/', size: 9 },
      { file: 'scratch/check.py', kind: 'scratch file', size: 9 },
    ]);
  });
});

/** Every file under `dir`, relative, `/`-separated. */
function filesOnDisk(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/** The files a read session shows (the site renders each of these), lists as not shown, or names in a problem. */
function accountedFor(s: Session): Set<string> {
  const out = new Set<string>([...s.transcriptFiles, ...s.problems.map((p) => p.file)]);
  for (const step of s.steps) {
    for (const src of step.sources) out.add(src.file);
    if (step.output) out.add(step.output.file);
    if (step.contentMd) out.add(step.contentMd.file);
  }
  for (const f of s.unattachedStepFiles ?? []) {
    if (f.output) out.add(f.output.file);
    if (f.contentMd) out.add(f.contentMd.file);
  }
  for (const a of s.artifacts) {
    if (a.file) out.add(a.file);
    if (a.metadata) out.add(`${a.name}.metadata.json`);
    for (const v of a.versions) out.add(v.file);
  }
  for (const list of [s.messages, s.taskLogs, s.uploads, s.browserTrail ?? [], s.notShown ?? []]) for (const f of list) out.add(f.file);
  return out;
}

/** `../shared/<name>/gemini` beside the project (a worktree of it sits one level deeper). */
const shared = (name: string) =>
  [path.resolve(projectRoot, '../shared', name, 'gemini'), path.resolve(projectRoot, '../../shared', name, 'gemini')].find((p) => existsSync(p)) ?? '';

for (const [name, home] of [
  ['real-brains', shared('real-brains')],
  ['real-eras', shared('real-eras')],
] as const) {
  describe.skipIf(home === '')(`every file of ${name} is accounted for`, () => {
    it('is shown (its reader holds it) or listed as not shown', async () => {
      const { sessions } = await discoverSessions({ geminiHome: home });
      expect(sessions.length).toBeGreaterThan(0);
      const unaccounted: string[] = [];
      for (const ref of sessions) {
        const s = await readSession(ref);
        const seen = accountedFor(s);
        const all = filesOnDisk(ref.dir);
        const paths = new Set(all);
        for (const file of all) {
          const role = classifyFile(file, paths);
          // Not shown ⇔ listed; shown ⇔ its reader holds it. `overview.txt` is read by the transcript reader and
          // chunk files are the transcript their main file already is (read either way).
          const held = seen.has(file) || role === 'overview' || (role === 'transcript' && s.transcriptFiles.length > 0);
          if (!held || (SHOWN_AT[role] === undefined) !== (s.notShown ?? []).some((f) => f.file === file)) unaccounted.push(`${s.id.slice(0, 8)} ${file} (${role})`);
        }
      }
      expect(unaccounted).toEqual([]);
    });
  });
}
