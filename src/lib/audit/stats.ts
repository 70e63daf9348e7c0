/**
 * The numbers behind `/stats/`, from the lean session summaries: sessions and steps per day, tool use, models,
 * products and session lengths. Pure; days are UTC (builds do not depend on TZ).
 */
import { saneIso } from '../brain/dates.ts';
import { UNKNOWN_MODEL } from '../turns/models.ts';
import { emptyCounts, type TokenCounts } from '../turns/usage.ts';
import type { SessionSummary, StepRow } from '../archive/schemas.ts';
import type { Datum } from './charts.ts';

/** Longest run of days drawn day by day; a longer span is drawn per month. */
export const MAX_DAILY_SPAN = 120;
/** Longest run of months drawn month by month (10 years); a longer span is drawn per year, so a chart has at most 100 bars. */
export const MAX_MONTHLY_SPAN = 120;

/** The unit of a time series. */
export type SeriesUnit = 'day' | 'month' | 'year';

/** Length of a unit's key (`2026-03-01`, `2026-03`, `2026`). */
const KEY_LENGTH: Record<SeriesUnit, number> = { day: 10, month: 7, year: 4 };

/** Bucket edges (inclusive upper bounds) for session lengths in steps. */
export const LENGTH_BUCKETS: [number, string][] = [
  [0, '0 steps'],
  [10, '1–10'],
  [50, '11–50'],
  [100, '51–100'],
  [500, '101–500'],
  [1000, '501–1,000'],
  [5000, '1,001–5,000'],
  [Number.POSITIVE_INFINITY, 'over 5,000'],
];

function addCounts(into: TokenCounts, u: TokenCounts): void {
  into.calls += u.calls;
  into.input += u.input;
  into.cache_read += u.cache_read;
  into.output += u.output;
  into.thinking += u.thinking;
}

/** Everything `/stats/` shows. */
export interface ArchiveStats {
  sessions: number;
  steps: number;
  toolCalls: number;
  /** Failed calls and agent errors over every session (`turns/failures.ts`): the sum of the session pages' numbers. */
  failedCalls: number;
  agentErrors: number;
  /** `day`, `month` or `year`: the unit of the time series. */
  unit: SeriesUnit;
  sessionsPer: Datum[];
  stepsPer: Datum[];
  tools: Datum[];
  /** Steps per model in force, most used first. */
  models: Datum[];
  products: Datum[];
  lengths: Datum[];
  /**
   * Tokens of every model call of the sessions with a conversation database (`turns/usage.ts`): the totals, per
   * model (most tokens first) and per time unit of the request (input read, uncached plus cache-read; output).
   * `usageSessions` is how many sessions had a database.
   */
  usage: TokenCounts;
  usageSessions: number;
  usageByModel: Array<TokenCounts & { model: string }>;
  tokensReadPer: Datum[];
  tokensWrittenPer: Datum[];
}

/** The UTC day of a time the archive places (dates.ts): a step of year 275760 is in no day and no chart. */
function dayKey(iso: string | undefined): string | undefined {
  return saneIso(iso)?.slice(0, 10);
}

function add(map: Map<string, number>, key: string, n = 1): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

/** Every day (month, year) from the first to the last key, zeros filled in, oldest first. */
export function fillSeries(counts: Map<string, number>, unit: SeriesUnit): Datum[] {
  const keys = [...counts.keys()].sort();
  const first = keys[0];
  const last = keys[keys.length - 1];
  if (!first || !last) return [];
  const out: Datum[] = [];
  // A month or year key padded to its first day.
  const cursor = new Date(`${`${first}-01-01`.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(cursor.getTime())) return [];
  for (let guard = 0; guard < 100_000; guard++) {
    const key = cursor.toISOString().slice(0, KEY_LENGTH[unit]);
    out.push({ label: key, value: counts.get(key) ?? 0 });
    if (key >= last) break;
    if (unit === 'day') cursor.setUTCDate(cursor.getUTCDate() + 1);
    else if (unit === 'month') cursor.setUTCMonth(cursor.getUTCMonth() + 1);
    else cursor.setUTCFullYear(cursor.getUTCFullYear() + 1);
  }
  return out;
}

function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

function ranked(map: Map<string, number>, limit = 20): Datum[] {
  const all = [...map].map(([label, value]) => ({ label, value })).sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
  if (all.length <= limit) return all;
  const rest = all.slice(limit - 1).reduce((n, d) => n + d.value, 0);
  return [...all.slice(0, limit - 1), { label: `${all.length - limit + 1} others`, value: rest }];
}

/**
 * A session's steps by the UTC day they were recorded (`2026-03-01` → count); a step with no date it can place
 * counts on the session's start day. What `/sessions.json` carries as `stepDays`, so a joined site draws the same
 * charts without the parts' step rows.
 */
export function stepDaysOf(session: Pick<SessionSummary, 'createdAt'>, rows: readonly Pick<StepRow, 'createdAt'>[]): Record<string, number> {
  const day = dayKey(session.createdAt);
  const out: Record<string, number> = {};
  for (const row of rows) {
    const d = dayKey(row.createdAt) ?? day;
    if (d) out[d] = (out[d] ?? 0) + 1;
  }
  return out;
}

/**
 * The archive's numbers. Steps count on the day they were recorded (a session can span days): each session's
 * `stepDays`, which a joined site has from its parts' `/sessions.json` as well.
 */
export function archiveStats(sessions: readonly SessionSummary[]): ArchiveStats {
  const sessionsPerDay = new Map<string, number>();
  const stepsPerDay = new Map<string, number>();
  const tools = new Map<string, number>();
  const models = new Map<string, number>();
  const products = new Map<string, number>();
  const lengths = new Map<string, number>(LENGTH_BUCKETS.map(([, label]) => [label, 0]));
  let steps = 0;
  let toolCalls = 0;
  let failedCalls = 0;
  let agentErrors = 0;
  const usage = emptyCounts();
  let usageSessions = 0;
  const usageByModel = new Map<string, TokenCounts>();
  const readPerDay = new Map<string, number>();
  const writtenPerDay = new Map<string, number>();
  for (const s of sessions) {
    if (s.usage) {
      usageSessions++;
      addCounts(usage, s.usage);
      for (const [model, u] of Object.entries(s.usage.by_model)) {
        const into = usageByModel.get(model) ?? emptyCounts();
        addCounts(into, u);
        usageByModel.set(model, into);
      }
      for (const [d, u] of Object.entries(s.usage.byDay)) {
        if (!dayKey(d)) continue;
        add(readPerDay, d, u.input + u.cache_read);
        add(writtenPerDay, d, u.output);
      }
    }
    const day = dayKey(s.createdAt);
    if (day) add(sessionsPerDay, day);
    for (const [d, n] of Object.entries(s.stepDays)) if (dayKey(d)) add(stepsPerDay, d, n);
    for (const [tool, n] of Object.entries(s.toolCounts)) add(tools, tool, n);
    // Steps per model in force (the turn builder's count from the Model Selection changes): a session that switched
    // model four times no longer credits every step to the last one. Older entries without it count by session.
    if (s.stepsPerModel && Object.keys(s.stepsPerModel).length > 0) {
      for (const [model, n] of Object.entries(s.stepsPerModel)) add(models, model === UNKNOWN_MODEL ? '(no model recorded)' : model, n);
    } else add(models, s.model ?? '(no model recorded)', s.stepCount);
    add(products, s.product);
    const bucket = LENGTH_BUCKETS.find(([max]) => s.stepCount <= max)?.[1] ?? 'over 5,000';
    add(lengths, bucket);
    steps += s.stepCount;
    toolCalls += s.toolCallCount;
    failedCalls += s.conversation?.failedCalls ?? 0;
    agentErrors += s.conversation?.agentErrors ?? 0;
  }
  const allDays = [...new Set([...sessionsPerDay.keys(), ...stepsPerDay.keys(), ...readPerDay.keys()])].sort();
  const span = allDays.length > 0 ? daysBetween(allDays[0] as string, allDays[allDays.length - 1] as string) : 0;
  const unit: SeriesUnit = span <= MAX_DAILY_SPAN ? 'day' : span <= MAX_MONTHLY_SPAN * 30.44 ? 'month' : 'year';
  const byUnit = (m: Map<string, number>): Map<string, number> => {
    if (unit === 'day') return m;
    const out = new Map<string, number>();
    for (const [k, v] of m) add(out, k.slice(0, KEY_LENGTH[unit]), v);
    return out;
  };
  // Both series share one axis of dates, so the two charts line up.
  const range = new Map<string, number>(allDays.map((d) => [d.slice(0, KEY_LENGTH[unit]), 0]));
  const series = (m: Map<string, number>): Datum[] => {
    const filled = new Map(range);
    for (const [k, v] of byUnit(m)) filled.set(k, v);
    return fillSeries(filled, unit);
  };
  return {
    sessions: sessions.length,
    steps,
    toolCalls,
    failedCalls,
    agentErrors,
    unit,
    sessionsPer: series(sessionsPerDay),
    stepsPer: series(stepsPerDay),
    tools: ranked(tools),
    models: ranked(models),
    products: ranked(products),
    lengths: LENGTH_BUCKETS.map(([, label]) => ({ label, value: lengths.get(label) ?? 0 })),
    usage,
    usageSessions,
    usageByModel: [...usageByModel]
      .map(([model, u]) => ({ model, ...u }))
      .sort((a, b) => b.input + b.cache_read + b.output - (a.input + a.cache_read + a.output) || a.model.localeCompare(b.model)),
    tokensReadPer: usageSessions > 0 ? series(readPerDay) : [],
    tokensWrittenPer: usageSessions > 0 ? series(writtenPerDay) : [],
  };
}
