/**
 * The pure pieces of the conversation view, on the demo and the real sessions: pages that hold every item once and
 * in order, the wall-clock strip, titles and endings, page starts by size, and where images go.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session } from '../../src/lib/brain/types.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { conversationPageStarts, itemWeight, pageOfItem, pageOfTurn, pageTurns } from '../../src/lib/conversation/pages.ts';
import { subagentsOfCall, tasksByCall } from '../../src/lib/conversation/view.ts';
import { groupBackgroundTasks } from '../../src/lib/family/background-tasks.ts';
import { wallClockStrip } from '../../src/lib/conversation/strip.ts';
import { checkpointObjective, plainLine, sessionEnding, sessionTitle, shorten } from '../../src/lib/conversation/summary.ts';
import { imageOrigin, placeImages } from '../../src/lib/conversation/images.ts';
import { servedUploadName } from '../../src/lib/archive/summarise.ts';
import { pageOfIndex, pageSlice, pageStarts } from '../../src/lib/archive/session-pages.ts';
import { projectRoot } from '../helpers/build-site.ts';

const REAL = path.resolve(projectRoot, '..', 'shared', 'real-brains', 'gemini');
const realRoots = ['antigravity', 'antigravity-cli', 'antigravity-ide', 'jetski'].map((p) => path.join(REAL, p, 'brain'));

async function readAll(options: Parameters<typeof discoverSessions>[0]): Promise<Session[]> {
  const discovery = await discoverSessions(options);
  return Promise.all(discovery.sessions.map((ref) => readSession(ref)));
}

describe('page starts by count and size', () => {
  it('ends a page before the item that would pass the budget, gives a big item its own page', () => {
    expect(pageStarts([], 10, 100)).toEqual([0]);
    expect(pageStarts([40, 40, 40, 200, 10], 10, 100)).toEqual([0, 2, 3, 4]);
    expect(pageStarts([1, 1, 1, 1, 1], 2, 100)).toEqual([0, 2, 4]);
    const starts = [0, 2, 3, 4];
    expect(pageSlice(['a', 'b', 'c', 'd', 'e'], starts, 2)).toEqual(['c']);
    expect([0, 1, 2, 3, 4].map((i) => pageOfIndex(starts, i))).toEqual([1, 1, 2, 3, 4]);
  });
});

describe('a line without its Markdown marks (plainLine, for titles and headlines)', () => {
  it('keeps marks inside a word: a request naming __init__.py is titled with it', () => {
    expect(plainLine('Fix the imports in __init__.py')).toBe('Fix the imports in __init__.py');
    expect(plainLine('rename my_var_name and x__y__z')).toBe('rename my_var_name and x__y__z');
    expect(plainLine('__init__.py')).toBe('__init__.py');
  });
  it('drops emphasis around words, code spans, heading and list marks', () => {
    expect(plainLine('# Make **the build** _fast_.')).toBe('Make the build fast.');
    expect(plainLine('- run `npm test`, then __push__')).toBe('run npm test, then push');
    expect(plainLine('**보기**를 눌러 주세요')).toBe('보기를 눌러 주세요');
  });
});

describe('how a session ended (sessionEnding): the first line of real prose of the last reply', () => {
  const endingOf = (text: string): string | undefined =>
    sessionEnding({ artifacts: [] }, [{ items: [{ kind: 'reply', text, calls: [] }] }] as unknown as Parameters<typeof sessionEnding>[1])?.text;

  it("skips a line of images (an image's alt text is no summary)", () => {
    expect(endingOf('![충성](https://example.com/salute.png)\n\n**충성! 배포가 끝났습니다.**')).toBe('충성! 배포가 끝났습니다.');
    expect(endingOf('![done](a.png) ![also](b.png)\n\nThe site is deployed and the tests pass.')).toBe('The site is deployed and the tests pass.');
  });

  it('skips table rows and separators (a flattened table is bars and cells)', () => {
    const text = '| File | Description |\n|------|-------------|\n| `a.ts` | the reader |\n\nI changed two files; both tests pass.';
    expect(endingOf(text)).toBe('I changed two files; both tests pass.');
    expect(endingOf('## Changes\n\n| File | Description |\n|---|---|\n| a.ts | reader |')).toBe('Changes');
    // A line ending in `:` introduces the table: not joined to the prose after it (real ede1eb3f).
    expect(endingOf('The files are in the artifact folder:\n\n| File | Description |\n|---|---|\n| a.ts | reader |\n\nOpen Windows File Explorer.')).toBe('The files are in the artifact folder:');
    expect(endingOf('Done:\n- a.ts fixed\n- b.ts fixed')).toBe('Done: a.ts fixed; b.ts fixed');
  });
});

describe('the conversation of the demo sessions', () => {
  let sessions: Session[];
  beforeAll(async () => {
    sessions = await readAll({ geminiHome: path.join(projectRoot, 'fixtures', 'demo') });
  });

  it('cuts turns into pages that hold every item exactly once, in order, whatever the budget', () => {
    for (const s of sessions) {
      const { turns } = sessionTurns(s);
      for (const budget of [1, 5_000, 40_000, 10_000_000]) {
        const starts = conversationPageStarts(turns, s, 0, budget);
        const seen: string[] = [];
        for (let n = 1; n <= starts.length; n++) {
          const parts = pageTurns(turns, starts, n);
          expect(parts.length, `${s.id} budget ${budget} page ${n}`).toBeGreaterThan(0);
          for (const part of parts) for (const [i, item] of part.items.entries()) {
            seen.push(`${part.index}:${part.turn.items.indexOf(item)}`);
            expect(pageOfItem(starts, part.index, part.turn.items.indexOf(item))).toBe(n);
            if (i === 0 && !part.continued) expect(pageOfTurn(starts, part.index)).toBe(n);
          }
        }
        const all = turns.flatMap((t, ti) => t.items.map((_, i) => `${ti}:${i}`));
        expect(seen, `${s.id} budget ${budget}`).toEqual(all);
      }
      expect(conversationPageStarts(turns, s)).toEqual([{ turn: 0, item: 0 }]);
    }
  });

  it("pairs the demo parent's calls with what they started, and counts it in the item's estimated weight", () => {
    const parent = sessions.find((s) => s.id.startsWith('5b1e0c2a')) as Session;
    const built = sessionTurns(parent);
    const invoke = built.calls.find((c) => c.name === 'invoke_subagent');
    expect(invoke?.callStepKey).toBe('1');
    const links = [{ stepKey: '1', role: 'a' }, { stepKey: '1', role: 'b' }, { stepKey: '7', role: 'elsewhere' }];
    expect(subagentsOfCall(links, invoke as NonNullable<typeof invoke>).map((l) => l.role)).toEqual(['a', 'b']);
    // A call of another tool at that step claims none.
    expect(subagentsOfCall(links, { name: 'run_command', callStepKey: '1' })).toEqual([]);
    const tasks = groupBackgroundTasks({ ...parent, calls: built.calls });
    const byCall = tasksByCall(tasks, built.calls);
    // task-6 by the task id its run_command outcome names; task-4 (a schedule the builder does not pair) by its announcement.
    expect(built.calls.find((c) => c.callStepKey === '5')?.outcome.background?.taskId).toMatch(/\/task-6$/);
    expect(built.calls.find((c) => c.callStepKey === '3')?.outcome.background).toBeUndefined();
    expect([...byCall].map(([id, t]) => [built.calls.find((c) => c.id === id)?.callStepKey, t.number]).sort()).toEqual([['3', 4], ['5', 6]]);
    // The reply holding the invoke_subagent call weighs its two subagent cards more than the call alone.
    const stepAt = (p: number) => parent.steps.find((s) => s.position === p);
    const item = built.turns.flatMap((t) => t.items).find((i) => i.kind === 'reply' && i.calls.includes(invoke as NonNullable<typeof invoke>));
    const reply = item as Extract<NonNullable<typeof item>, { kind: 'reply' }>;
    const bare = { ...reply, calls: reply.calls.map((c) => (c === invoke ? { ...c, name: 'other_tool' } : c)) };
    expect(itemWeight(reply, stepAt) - itemWeight(bare, stepAt)).toBeGreaterThan(2 * 1_000);
  });

  it('draws one band per turn, each a link to its turn, red for a turn with failures', () => {
    const s = sessions.find((x) => x.id.startsWith('04c6284a')) as Session;
    const { turns } = sessionTurns(s);
    const svg = wallClockStrip(turns.map((t) => ({ number: t.number, startedAt: t.stats.startedAt, endedAt: t.stats.endedAt, activeMs: t.stats.activeMs, failures: t.stats.failures, toolCalls: t.stats.toolCalls, href: `#turn-${t.number}`, label: '' })));
    const timed = turns.filter((t) => t.stats.startedAt);
    expect(svg.match(/<a href="#turn-\d+"/g)?.length).toBe(timed.length);
    expect(svg.match(/class="strip-band strip-band-failed"/g)?.length ?? 0).toBe(timed.filter((t) => t.stats.failures > 0).length);
    expect(svg).not.toMatch(/style=/);
    expect(wallClockStrip([])).toBe('');
  });

  it('caps idle time: a day between two short turns stays narrow', () => {
    const svg = wallClockStrip([
      { number: 1, startedAt: '2026-01-01T10:00:00Z', endedAt: '2026-01-01T10:10:00Z', failures: 0, toolCalls: 3, href: '#turn-1', label: '' },
      { number: 2, startedAt: '2026-01-02T10:00:00Z', endedAt: '2026-01-02T10:10:00Z', failures: 1, toolCalls: 2, href: '#turn-2', label: '' },
    ]);
    const widths = [...svg.matchAll(/class="strip-band[^"]*" x="[\d.]+" y="\d+" width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths).toHaveLength(2);
    for (const w of widths) expect(w).toBeGreaterThan(300);
    expect(svg).toContain('<title>idle 23 h 50 min</title>');
  });

  it('names a session as Antigravity did, and says how it ended', () => {
    const byPrefix = (p: string) => sessions.find((x) => x.id.startsWith(p)) as Session;
    const titles = Object.fromEntries(sessions.map((s) => [s.id.slice(0, 8), sessionTitle(s, sessionTurns(s).turns, s.meta.title)]));
    expect(titles).toMatchInlineSnapshot(`
      {
        "04c6284a": "Per-API-key rate limiting for the orders API",
        "1ef4ccf5": "Brewbox landing page",
        "5b1e0c2a": "Write the v2.4 release notes from the merged PRs and check that every link in the docs…",
        "7fc10e1b": "Fix: flaky test_invoice_totals_rollover",
        "a3c9e1f4": "Draft the v2.4 release notes in docs/releases/v2.4.md from the PRs merged into main for…",
        "c7d2f8b3": "Open the docs preview at http://localhost:4000/docs/ and follow every link on every page.",
        "e08e5d5e": "logslice: Python → Go",
        "e69b7648": "Why is the Docker build cache never used in CI?",
      }
    `);
    const rate = byPrefix('04c6284a');
    expect(sessionEnding(rate, sessionTurns(rate).turns)?.text).toMatch(/^Done: /);
    expect(checkpointObjective('{{ CHECKPOINT 1 }}\n# USER Objective:\nBuilding **Curvy** Comfort\n\n# User Requests')).toBe('Building Curvy Comfort');
    expect(shorten('a '.repeat(100), 20)).toMatch(/^(a ){1,9}a…$|^a( a)*…$/);
  });

  it('places an upload in the turn that mentions it and a generated image at its call', () => {
    const s = sessions.find((x) => x.id.startsWith('1ef4ccf5')) as Session;
    const built = sessionTurns(s);
    const uploads = s.uploads.map((u, i) => ({ file: u.file, name: u.name, served: servedUploadName(u, i) }));
    const places = placeImages(uploads, built.turns, built.calls, (c) => s.steps.find((st) => st.key === c.callStepKey)?.toolCalls[c.callIndex]?.args);
    const where = (name: string) =>
      Object.entries(places.turns).find(([, list]) => list.some((u) => u.name === name))?.[0] ??
      Object.entries(places.calls).find(([, list]) => list.some((u) => u.name === name))?.[0];
    expect(where('current-landing.png')).toBe('1');
    expect(where('uploaded_media_1780000000000.png')).toBe('3');
    const maker = built.calls.find((c) => c.id === where('hero_pourover_1779286412337.png'));
    expect(maker?.name).toBe('generate_image');
    expect(places.elsewhere).toEqual([]);
    expect(imageOrigin({ file: 'media__1781501967677.jpg', name: 'media__1781501967677.jpg' })).toEqual({ origin: 'uploaded', at: 1781501967677 });
  });
});

describe.skipIf(!existsSync(REAL))('the conversation of the real sessions', () => {
  let sessions: Session[];
  beforeAll(async () => {
    sessions = await readAll({ brainRoots: realRoots.filter((r) => existsSync(r)) });
  });

  it('titles each session from what Antigravity wrote, else its first real request', () => {
    const titles = Object.fromEntries(sessions.map((s) => [s.id.slice(0, 8), sessionTitle(s, sessionTurns(s).turns, s.meta.title)]));
    expect(titles).toMatchInlineSnapshot(`
      {
        "0043a8fc": "주식 MVP 프로토타입(시그널X) 한글화 및 봉차트 구현 계획",
        "0694a4a2": "Build WaveWarz Analytics Dashboard",
        "846521af": "Ringkasan Status Pembangunan Projek",
        "86033144": "Telegram Bot Alerts Integration",
        "a99681b1": "Building Curvy Comfort Ecommerce Website",
        "ca4322d4": "HR Agentic PRD Review",
        "d493099f": "重写EP17-EP23及图片提示词任务清单",
        "ede1eb3f": "Thiết Kế Trang Quản Lý Giá",
      }
    `);
  });

  it('attaches a99681b1 upload to the request sent after it', () => {
    const s = sessions.find((x) => x.id.startsWith('a99681b1')) as Session;
    const built = sessionTurns(s);
    const uploads = s.uploads.map((u, i) => ({ file: u.file, name: u.name, served: servedUploadName(u, i) }));
    const places = placeImages(uploads, built.turns, built.calls, () => undefined);
    const turn = Object.keys(places.turns)[0];
    expect(built.turns.find((t) => String(t.number) === turn)?.request?.text).toBe('Continue');
  });

  it('keeps every page of 86033144 whole: all items on some page', () => {
    const s = sessions.find((x) => x.id.startsWith('86033144')) as Session;
    const { turns } = sessionTurns(s);
    const starts = conversationPageStarts(turns, s, 0, 200_000);
    expect(starts.length).toBeGreaterThan(2);
    const count = Array.from({ length: starts.length }, (_, i) => pageTurns(turns, starts, i + 1).reduce((n, p) => n + p.items.length, 0)).reduce((a, b) => a + b, 0);
    expect(count).toBe(turns.reduce((n, t) => n + t.items.length, 0));
  });
});

describe('the strip of a turn whose background command runs on', () => {
  it('stops the band where the next turn starts and says it ran on', () => {
    const svg = wallClockStrip([
      { number: 1, startedAt: '2026-01-01T10:00:00Z', endedAt: '2026-01-09T10:00:00Z', activeMs: 8 * 86_400_000, failures: 0, toolCalls: 1, href: '#turn-1', label: '' },
      { number: 2, startedAt: '2026-01-01T10:05:00Z', endedAt: '2026-01-01T10:10:00Z', failures: 0, toolCalls: 1, href: '#turn-2', label: '' },
    ]);
    const widths = [...svg.matchAll(/class="strip-band[^"]*" x="[\d.]+" y="\d+" width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(Math.abs((widths[0] ?? 0) - (widths[1] ?? 0))).toBeLessThan(10);
    expect(svg).toContain('10:00–10:05 UTC · 5 min 00 s, ran on past the next turn (192 h 00 min in all)');
  });
});
