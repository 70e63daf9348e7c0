/**
 * The wall-clock strip at the top of a session page: a static SVG made at build time (as `audit/charts.ts` makes
 * its charts), one band per turn, its width by the turn's duration, the idle time between turns left empty,
 * failures marked in red, each band a link to its turn. Idle time would squeeze every band to a hair (real session
 * 86033144: 188 h of wall-clock, most of it one turn left waiting for days), so idle time, between turns or inside
 * one (wall-clock minus active), is drawn at most `GAP_MAX` wide: a gap with a break mark, a turn's idle tail in a
 * lighter shade, each with its length in its title. Colours come from CSS classes (`strip-band`, `strip-fail`, …), never inline styles (CSP). Pure.
 */
import { plural } from '../archive/labels.ts';
import { escapeHtml } from '../render/escape.ts';
import { formatDuration } from '../archive/format.ts';
import { saneTime } from '../brain/dates.ts';
import { failureWords } from '../turns/failures.ts';

/** One turn, as the strip needs it. */
export interface StripTurn {
  number: number;
  startedAt?: string;
  endedAt?: string;
  /** Time working, without the idle stretches inside the turn (the builder's `activeMs`); the wall-clock when absent. */
  activeMs?: number;
  /** Failed calls and agent errors (`TurnStats`, counted in `turns/failures.ts`). */
  failures: number;
  agentErrors?: number;
  toolCalls: number;
  /** Where its band links to. */
  href: string;
  /** A short label for the band's title (the request's first words). */
  label: string;
}

const W = 720;
const H = 46;
const BAND_Y = 6;
const BAND_H = 24;
/** Narrowest band, so a turn of a few seconds can still be seen and clicked. */
const MIN_BAND = 4;
/** Widest gap drawn; longer idle time gets a break mark. */
const GAP_MAX = 26;

/** A time the archive places (dates.ts: a date outside 2000–2099 is a problem, not a point on the strip). */
function ms(iso: string | undefined): number | undefined {
  return saneTime(iso);
}

function round(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** `14:05`, or `2026-08-03 14:05` on a strip that spans more than one UTC day (a 28-hour session's times alone
 * would not say which day a turn was on). */
function clock(t: number, withDay = false): string {
  const iso = new Date(t).toISOString();
  return withDay ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 16);
}

function utcDay(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

interface Span {
  turn: StripTurn;
  start: number;
  end: number;
  active: number;
}

/** The strip's SVG, or `''` when no turn has a time (nothing to put on a clock). */
export function wallClockStrip(turns: readonly StripTurn[], id = 'strip'): string {
  const spans: Span[] = [];
  for (const turn of turns) {
    const start = ms(turn.startedAt);
    if (start === undefined) continue;
    const end = Math.max(start, ms(turn.endedAt) ?? start);
    spans.push({ turn, start, end, active: Math.min(end - start, Math.max(0, turn.activeMs ?? end - start)) });
  }
  if (spans.length === 0) return '';
  spans.sort((a, b) => a.start - b.start);
  const days = utcDay((spans[0] as Span).start) !== utcDay(Math.max(...spans.map((s) => s.end)));
  const at = (t: number) => clock(t, days);
  // A turn's background command can run on for days (real 86033144: a bot started in turn 17 ran 186 h); its band
  // stops where the next turn starts, and its title says the turn ran on (`wall` keeps the turn's own duration).
  const wall = new Map(spans.map((s) => [s, s.end - s.start]));
  spans.forEach((s, i) => {
    const next = spans[i + 1];
    if (next && s.end > next.start) {
      s.end = Math.max(s.start, next.start);
      s.active = Math.min(s.active, s.end - s.start);
    }
  });
  // Idle stretches, in drawing order: the idle tail of each turn, then the gap before the next turn.
  const idle: number[] = [];
  spans.forEach((s, i) => {
    idle.push(s.end - s.start - s.active);
    const next = spans[i + 1];
    if (next) idle.push(Math.max(0, next.start - s.end));
  });
  const working = spans.reduce((a, s) => a + s.active, 0);
  // Scale time to pixels; idle stretches wider than GAP_MAX are fixed at GAP_MAX and the rest rescaled.
  const capped = new Set<number>();
  let scale = 0;
  for (let pass = 0; pass < 6; pass++) {
    const fixed = capped.size * GAP_MAX + spans.length * MIN_BAND;
    const time = working + idle.reduce((a, g, i) => a + (capped.has(i) ? 0 : g), 0);
    scale = time > 0 ? Math.max(0, W - fixed) / time : 0;
    let changed = false;
    idle.forEach((g, i) => {
      if (!capped.has(i) && g * scale > GAP_MAX) {
        capped.add(i);
        changed = true;
      }
    });
    if (!changed) break;
  }
  const width = (i: number) => (capped.has(i) ? GAP_MAX : (idle[i] as number) * scale);
  const parts: string[] = [];
  let x = 0;
  let k = 0;
  spans.forEach((span, i) => {
    const t = span.turn;
    const failed = t.failures + (t.agentErrors ?? 0) > 0;
    const activeW = MIN_BAND + span.active * scale;
    const tailW = width(k);
    const tail = idle[k] as number;
    k++;
    const own = wall.get(span) ?? span.end - span.start;
    const ranOn = own > span.end - span.start ? `, ran on past the next turn (${formatDuration(own)} in all)` : '';
    const title = `Turn ${t.number} · ${at(span.start)}–${utcDay(span.end) === utcDay(span.start) ? clock(span.end) : at(span.end)} UTC · ${formatDuration(span.end - span.start) || '0 s'}${tail > 0 ? ` (${formatDuration(span.active) || '0 s'} active)` : ''}${ranOn} · ${plural(t.toolCalls, 'tool call')}${t.failures > 0 ? ` · ${failureWords.failedCalls(t.failures)}` : ''}${(t.agentErrors ?? 0) > 0 ? ` · ${failureWords.agentErrors(t.agentErrors ?? 0)}` : ''}${t.label ? ` · ${t.label}` : ''}`;
    const bandW = activeW + tailW;
    parts.push(
      `<a href="${escapeHtml(t.href)}" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>` +
        `<rect class="strip-band${failed ? ' strip-band-failed' : ''}" x="${round(x)}" y="${BAND_Y}" width="${round(Math.max(activeW - 1, 2))}" height="${BAND_H}" rx="2"/>` +
        (tailW >= 1 ? `<rect class="strip-idle" x="${round(x + activeW - 1)}" y="${BAND_Y + 4}" width="${round(Math.max(tailW - 1, 1))}" height="${BAND_H - 8}"/>` : '') +
        (failed ? `<rect class="strip-fail" x="${round(x)}" y="${BAND_Y + BAND_H - 5}" width="${round(Math.max(activeW - 1, 2))}" height="5"/>` : '') +
        (activeW >= 22 ? `<text class="strip-label" x="${round(x + activeW / 2)}" y="${BAND_Y + BAND_H / 2 + 4}" text-anchor="middle">${t.number}</text>` : '') +
        `</a>`,
    );
    x += bandW;
    if (i < spans.length - 1) {
      const gap = idle[k] as number;
      const w = width(k);
      if (capped.has(k)) {
        const mid = x + w / 2;
        parts.push(
          `<g class="strip-gap"><title>${escapeHtml(`idle ${formatDuration(gap)}`)}</title>` +
            `<rect class="strip-gap-area" x="${round(x)}" y="${BAND_Y}" width="${round(w)}" height="${BAND_H}"/>` +
            `<path class="strip-break" d="M${round(mid - 4)} ${BAND_Y + BAND_H + 2} l4 -${BAND_H + 4} M${round(mid)} ${BAND_Y + BAND_H + 2} l4 -${BAND_H + 4}"/></g>`,
        );
      }
      x += w;
      k++;
    }
  });
  const first = spans[0] as Span;
  const last = Math.max(...spans.map((s) => s.end));
  parts.push(`<text class="strip-tick" x="0" y="${H - 2}">${escapeHtml(`${at(first.start)} UTC`)}</text>`);
  parts.push(`<text class="strip-tick" x="${W}" y="${H - 2}" text-anchor="end">${escapeHtml(`${at(last)} UTC`)}</text>`);
  const desc = `${spans.length} turn${spans.length === 1 ? '' : 's'} from ${at(first.start)} to ${at(last)} UTC; band width is time at work, idle time is drawn short (a break mark between turns, a pale tail inside a turn); turns with failed calls or agent errors are marked red.`;
  const safe = id.replace(/[^A-Za-z0-9_-]/g, '-');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" class="strip-svg" role="group" aria-labelledby="${safe}-title" aria-describedby="${safe}-desc">` +
    `<title id="${safe}-title">Wall-clock strip of the session</title><desc id="${safe}-desc">${escapeHtml(desc)}</desc>` +
    parts.join('') +
    `</svg>`
  );
}
