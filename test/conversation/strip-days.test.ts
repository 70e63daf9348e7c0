import { describe, expect, it } from 'vitest';
import { wallClockStrip } from '../../src/lib/conversation/strip.ts';

const turn = (number: number, startedAt: string, endedAt: string) => ({ number, startedAt, endedAt, failures: 0, toolCalls: 1, href: `#turn-${number}`, label: '' });

describe('wall-clock strip', () => {
  it('shows times alone on a strip within one UTC day', () => {
    const svg = wallClockStrip([turn(1, '2026-08-03T09:00:00Z', '2026-08-03T09:05:00Z'), turn(2, '2026-08-03T10:00:00Z', '2026-08-03T10:30:00Z')]);
    expect(svg).toContain('>09:00 UTC<');
    expect(svg).toContain('>10:30 UTC<');
    expect(svg).toContain('Turn 1 · 09:00–09:05 UTC');
    expect(svg).toContain('· 1 tool call');
    expect(svg).not.toContain('1 tool calls');
    expect(svg).not.toContain('2026-08-03');
  });

  it('puts the date on every time of a strip that spans days', () => {
    const svg = wallClockStrip([turn(1, '2026-08-03T22:00:00Z', '2026-08-03T23:00:00Z'), turn(2, '2026-08-04T21:00:00Z', '2026-08-05T02:00:00Z')]);
    expect(svg).toContain('>2026-08-03 22:00 UTC<');
    expect(svg).toContain('>2026-08-05 02:00 UTC<');
    expect(svg).toContain('Turn 1 · 2026-08-03 22:00–23:00 UTC');
    expect(svg).toContain('Turn 2 · 2026-08-04 21:00–2026-08-05 02:00 UTC');
  });
});
