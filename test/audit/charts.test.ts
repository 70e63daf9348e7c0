/** The build-time SVG charts: well-formed, labelled for assistive tech, escaped, and carrying their numbers. */
import { describe, expect, it } from 'vitest';
import { columnChart, horizontalBarChart, niceStep } from '../../src/lib/audit/charts.ts';
import { archiveStats, fillSeries, stepDaysOf } from '../../src/lib/audit/stats.ts';
import type { SessionSummary } from '../../src/lib/archive/schemas.ts';

/** A small well-formedness check: every tag closes in order (no XML parser in Node). */
function balanced(svg: string): boolean {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    const [, close, name, self] = m;
    if (self) continue;
    if (close) {
      if (stack.pop() !== name) return false;
    } else stack.push(name as string);
  }
  return stack.length === 0;
}

describe('charts', () => {
  const data = [
    { label: 'run_command', value: 1500 },
    { label: 'view_file', value: 866 },
    { label: '<script>alert(1)</script>', value: 3 },
  ];

  it('draws horizontal bars as valid SVG with title, desc, role and aria-label, containing the numbers', () => {
    const svg = horizontalBarChart(data, { id: 'tools', title: 'Tool use', desc: 'Tool calls by tool' });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(balanced(svg)).toBe(true);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('aria-label="Tool use"');
    expect(svg).toContain('<title id="tools-title">Tool use</title>');
    expect(svg).toContain('<desc id="tools-desc">Tool calls by tool</desc>');
    for (const n of ['1500', '866', '>3<']) expect(svg).toContain(n);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
    expect(svg).not.toMatch(/style=/);
    expect(svg.match(/<rect class="bar"/g)).toHaveLength(3);
  });

  it('draws columns over time with ticks, and an empty chart without failing', () => {
    const days = fillSeries(new Map([['2026-03-01', 2], ['2026-03-04', 5]]), 'day');
    expect(days).toEqual([
      { label: '2026-03-01', value: 2 },
      { label: '2026-03-02', value: 0 },
      { label: '2026-03-03', value: 0 },
      { label: '2026-03-04', value: 5 },
    ]);
    const svg = columnChart(days, { id: 'per day', title: 'Sessions per day', desc: 'd' });
    expect(balanced(svg)).toBe(true);
    expect(svg).toContain('2026-03-01: 2');
    expect(svg).toContain('2026-03-04: 5');
    expect(svg).toContain('id="per-day-title"');
    expect(balanced(columnChart([], { id: 'e', title: 'Empty', desc: 'e' }))).toBe(true);
    expect([niceStep(0.25), niceStep(1), niceStep(3), niceStep(24), niceStep(130)]).toEqual([1, 1, 5, 25, 200]);
    expect(fillSeries(new Map([['2025-11', 1], ['2026-02', 3]]), 'month').map((d) => d.label)).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
});

describe('stats over dates the archive cannot place', () => {
  const session = (id: string, createdAt: string, rows: { createdAt?: string }[] = []) =>
    ({ id, createdAt, toolCounts: {}, product: 'p', stepCount: 1, toolCallCount: 0, errorCount: 0, stepDays: stepDaysOf({ createdAt }, rows) }) as unknown as SessionSummary;

  it('leaves the first and last day JavaScript knows out of the series instead of throwing', () => {
    // Issue 10: a step at either end of the Date range threw `RangeError: Invalid time value` on /stats/.
    for (const extreme of ['-271821-04-20T00:00:00Z', '+275760-09-13T00:00:00.000Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
      const a = session('a', extreme, [{ createdAt: extreme }]);
      const b = session('b', '2026-03-01T10:00:00Z', [{ createdAt: extreme }, { createdAt: '2026-03-02T10:00:00Z' }]);
      const st = archiveStats([a, b]);
      expect(st.unit, extreme).toBe('day');
      expect(st.sessionsPer, extreme).toEqual([{ label: '2026-03-01', value: 1 }, { label: '2026-03-02', value: 0 }]);
      // A step without a time it can place counts on its session's day.
      expect(st.stepsPer.map((d) => d.value), extreme).toEqual([1, 1]);
    }
  });

  it('draws a span of decades per year, so a chart stays within 100 bars', () => {
    const st = archiveStats([session('a', '2000-01-01T00:00:00Z'), session('b', '2099-12-31T23:59:59Z')]);
    expect(st.unit).toBe('year');
    expect(st.sessionsPer).toHaveLength(100);
    expect(st.sessionsPer[0]).toEqual({ label: '2000', value: 1 });
    expect(st.sessionsPer.at(-1)).toEqual({ label: '2099', value: 1 });
    const months = archiveStats([session('a', '2020-01-01T00:00:00Z'), session('b', '2024-12-31T00:00:00Z')]);
    expect(months.unit).toBe('month');
    expect(months.sessionsPer).toHaveLength(60);
  });
});
