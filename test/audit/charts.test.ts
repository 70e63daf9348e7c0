/** The build-time SVG charts: well-formed, labelled for assistive tech, escaped, and carrying their numbers. */
import { describe, expect, it } from 'vitest';
import { columnChart, horizontalBarChart, niceStep } from '../../src/lib/audit/charts.ts';
import { fillSeries } from '../../src/lib/audit/stats.ts';

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
