/**
 * The audit views as a user sees them in the demo build (built once per run, shared with the site tests):
 * commands with their filters, files, errors, stats, the session's new sections, artifact history, messages,
 * task logs, /sessions.json and the single-file export.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../src/lib/brain/types.ts';
import { auditRows } from '../../src/lib/audit/rows.ts';
import { demoBuild, readDemoSessions } from '../helpers/homes.ts';
import type { SharedBuild } from '../helpers/shared-build.ts';
import { fileForUrl, htmlFiles, linksIn, readPage, textOf } from '../helpers/site-files.ts';

describe('audit views in the demo build', () => {
  let build: SharedBuild;
  let sessions: Session[];
  const page = (p: string) => {
    const html = readPage(build.outDir, p);
    expect(html, p).toBeDefined();
    return html ?? '';
  };
  beforeAll(async () => {
    build = await demoBuild();
    sessions = await readDemoSessions();
  });

  it('lists every command newest first, with outside-sandbox and failed filters as pages', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    const all = sessions.flatMap((s) => auditRows(s).commands);
    const text = textOf(page('/audit/commands/'));
    expect(text).toContain(`${all.length} commands`);
    expect(text).toContain(`env | sort | grep -E '^(AWS|BILLING|FX|GITHUB|PYTEST)'`);
    const outside = textOf(page('/audit/commands/outside-sandbox/'));
    expect(outside).toContain('1 commands');
    expect(outside).toContain('outside sandbox');
    expect(outside).not.toContain('npx vitest run test/rate-limit.test.ts');
    const failed = page('/audit/commands/failed/');
    expect(textOf(failed)).toContain('npx vitest run test/rate-limit.test.ts');
    expect(textOf(failed)).toContain('exit 1');
    expect(failed).toContain('href="/sessions/04c6284a-930e-444f-982e-37e931b8daf3/steps/52/"');
    expect((failed.match(/<tr class="is-error">/g) ?? []).length).toBe(all.filter((c) => c.failed).length);
  });

  it('groups file changes by path, each linked to its step; lists errors with their code', () => {
    const files = page('/audit/files/');
    expect(textOf(files)).toContain('/Users/sam/src/logslice/cmd/logslice/main.go');
    const steps = linksIn(files).filter((l) => l.includes('/steps/'));
    expect(steps.length).toBe(sessions.reduce((n, s) => n + auditRows(s).files.length, 0));
    for (const l of steps) expect(fileForUrl(build.outDir, l), l).toBeDefined();
    const errors = textOf(page('/audit/errors/'));
    expect(errors).toContain('The model encountered an internal error.');
    // Shown as what it counts as (an agent error), never as the record's green DONE.
    expect(errors).toMatch(/The model encountered an internal error\. error code 500 agent error/);
    expect(page('/audit/errors/')).not.toMatch(/badge-ok/);
  });

  it('draws the stats as SVG with a title, a description and a table of the same numbers', () => {
    const html = page('/stats/');
    const svgs = html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
    expect(svgs.length).toBe(6);
    for (const svg of svgs) {
      expect(svg).toMatch(/role="img" aria-label="[^"]+"/);
      expect(svg).toMatch(/<title id="[^"]+">[^<]+<\/title><desc id="[^"]+">[^<]+<\/desc>/);
      expect(svg).not.toMatch(/style=/);
    }
    expect(textOf(html)).toContain(`${sessions.length} sessions`);
    const runCommands = sessions.flatMap((s) => auditRows(s).commands).length;
    expect(textOf(html)).toContain(`run_command ${runCommands}`);
  });

  it('gives each session page Commands run and Files touched, the export link and message/task links', () => {
    const html = page('/sessions/04c6284a-930e-444f-982e-37e931b8daf3/');
    const text = textOf(html);
    expect(text).toContain('Commands run');
    expect(text).toContain('Files touched');
    expect(html).toContain('href="/sessions/04c6284a-930e-444f-982e-37e931b8daf3/export.html"');
    for (const s of sessions) {
      const p = textOf(page(`/sessions/${s.id}/`));
      if (s.messages.length > 0) {
        expect(p).toContain(`Read the ${s.messages.length} message`);
        const thread = textOf(page(`/sessions/${s.id}/messages/`));
        for (const m of s.messages) if (m.title) expect(thread).toContain(m.title);
      }
      if (s.taskLogs.length > 0) expect(textOf(page(`/sessions/${s.id}/tasks/`))).toContain(s.taskLogs[0]?.name ?? '');
    }
  });

  it('shows an artifact history with a diff between consecutive versions, one version a page', () => {
    const base = '/sessions/04c6284a-930e-444f-982e-37e931b8daf3/artifacts/task.md/';
    const html = page(base);
    expect(textOf(html)).toContain('History');
    expect(html).toMatch(/class="[^"]*diff-add/);
    // One diff on the artifact's page (its latest change), every version's on a page of its own.
    expect(html.match(/class="version-panel/g)).toHaveLength(1);
    const versions = [...html.matchAll(/<a class="version-tab" href="([^"]+)"/g)].map((m) => m[1]);
    expect(versions.length).toBeGreaterThan(1);
    versions.forEach((href, i) => expect(href).toBe(`${base}versions/${i + 1}/`));
    const first = page(`${base}versions/1/`);
    expect(textOf(first)).toContain('1. version 0');
    expect(textOf(first)).toContain('The first version in full');
    expect(textOf(page(`${base}versions/2/`))).toMatch(/2\. /);
  });

  it('writes /sessions.json with every session and a working url', () => {
    const list = JSON.parse(readFileSync(path.join(build.outDir, 'sessions.json'), 'utf8')) as Record<string, unknown>[];
    expect(list.map((e) => e.id).sort()).toEqual(sessions.map((s) => s.id).sort());
    for (const e of list) {
      // The index tooling reads, then what a joined site shows of the session (src/lib/join/).
      expect(Object.keys(e).slice(0, 7)).toEqual(['id', 'product', 'created', 'title', 'model', 'steps', 'url']);
      expect(Object.keys(e).slice(7)).toEqual([
        'prefix', 'workspace', 'localTime', 'durationMs', 'toolCalls', 'failedCalls', 'agentErrors', 'toolCounts', 'messages', 'taskLogs',
        'artifacts', 'redacted', 'stepDays', 'audit', 'models', 'stepsPerModel', 'conversation', 'family', 'ending', 'endingKind', 'notOnDiskSince', 'base', 'searchBundle',
      ]);
      expect(e.base).toBe('/');
      expect(existsSync(path.join(build.outDir, String(e.searchBundle), 'pagefind-entry.json')), String(e.searchBundle)).toBe(true);
      expect(Object.values(e.stepDays as Record<string, number>).reduce((n, v) => n + v, 0)).toBe(e.steps);
      expect(fileForUrl(build.outDir, String(e.url))).toBeDefined();
    }
  });

  it('exports each session as one self-contained file: own CSP, no script, no external reference', () => {
    for (const s of sessions) {
      const html = readFileSync(fileForUrl(build.outDir, `/sessions/${s.id}/export.html`) ?? '', 'utf8');
      expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<link\b/i);
      expect(html).not.toMatch(/\s(?:src|href)="(?!#|data:)/i);
      expect(html.match(/<style>([\s\S]*?)<\/style>/)?.[1]).not.toMatch(/url\(|@import/i);
      expect(textOf(html)).toContain(s.id);
      expect(html).toContain(`id="step-${s.steps[s.steps.length - 1]?.key}"`);
    }
    // A command, escaped, in its step.
    const ex = readFileSync(fileForUrl(build.outDir, '/sessions/7fc10e1b-7107-468d-9b45-ad18459f6d44/export.html') ?? '', 'utf8');
    expect(ex).toContain('env | sort | grep -E &#39;^(AWS|BILLING|FX|GITHUB|PYTEST)&#39;');
    expect(ex).toMatch(/title="BypassSandbox: the command ran outside the sandbox"[^>]*>outside the sandbox</);
  });

  it('loads the theme script as a file before the stylesheets and the keyboard script as a module file', () => {
    for (const rel of htmlFiles(build.outDir)) {
      if (rel.startsWith('s/') || rel.endsWith('export.html') || /^sessions\/[^/]+\/search\//.test(rel)) continue;
      const html = readFileSync(path.join(build.outDir, rel), 'utf8');
      const head = html.slice(0, html.indexOf('</head>'));
      expect(head, rel).toMatch(/<script src="\/theme-init\.js"><\/script>/);
      expect(head.indexOf('theme-init.js'), rel).toBeLessThan(head.indexOf('rel="stylesheet"'));
      expect(html, rel).toMatch(/<script type="module" src="\/_astro\/[^"]+\.js"><\/script>/);
      expect(html, rel).not.toMatch(/<script(?:\s[^>]*)?>\s*[^<\s]/);
    }
    expect(readFileSync(path.join(build.outDir, 'theme-init.js'), 'utf8')).toContain("localStorage.getItem('agy-theme')");
  });
});
