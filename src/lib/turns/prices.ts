/**
 * What model calls would cost, only ever as a labelled estimate (issue 29 point 3): a dated table of list prices in
 * US dollars per million tokens, per model as the conversation database names it. A model without a price has no
 * cost, never a guess. Antigravity bills by plan, not by these prices; the estimate says what the same tokens would
 * cost at the API's list price. `ARCHIVE_PRICES=<file.json>` replaces the table with a user's (same shape).
 */
import { readFileSync } from 'node:fs';
import type { TokenCounts } from './usage.ts';

/** US dollars per million tokens. Thinking tokens are output tokens (they are billed, and counted, as output). */
export interface ModelPrice {
  input: number;
  cache_read: number;
  output: number;
}

export interface PriceTable {
  /** The day the prices were read (YYYY-MM-DD): every estimate names it. */
  asOf: string;
  /** Where they were read. */
  source: string;
  /** By model name as `turns/usage.ts` `callModel` gives it (the display name, else the model id). */
  models: Record<string, ModelPrice>;
}

/**
 * The table shipped with the archive. Gemini API list prices (paid tier, prompts up to 200k tokens) as published on
 * ai.google.dev/gemini-api/docs/pricing. The models of the real conversation databases (`Gemini 3.5 Flash
 * (Medium)`, `gemini-3-flash-b`) are not in it: no published price names them, so they get no estimate.
 */
export const PRICES: PriceTable = {
  asOf: '2025-07',
  source: 'ai.google.dev/gemini-api/docs/pricing, paid tier, prompts up to 200k tokens, as published after the 2.5 models became generally available (re-check before relying on it)',
  models: {
    'Gemini 2.5 Pro': { input: 1.25, cache_read: 0.31, output: 10 },
    'Gemini 2.5 Flash': { input: 0.3, cache_read: 0.075, output: 2.5 },
    'Gemini 2.5 Flash-Lite': { input: 0.1, cache_read: 0.025, output: 0.4 },
  },
};

/** The table to use: the user's `ARCHIVE_PRICES` file when set and valid (else an error naming why), or the shipped one. */
export function priceTableFromEnv(env: NodeJS.ProcessEnv = process.env): PriceTable {
  const file = env.ARCHIVE_PRICES?.trim();
  if (!file) return PRICES;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`ARCHIVE_PRICES=${file} could not be read as JSON (${(error as Error).message}). Hint: {"asOf":"YYYY-MM-DD","source":"…","models":{"<model>":{"input":0.3,"cache_read":0.075,"output":2.5}}}`);
  }
  const t = parsed as Partial<PriceTable>;
  const ok =
    typeof t?.asOf === 'string' &&
    typeof t.source === 'string' &&
    t.models !== null &&
    typeof t.models === 'object' &&
    Object.values(t.models).every((p) => [p?.input, p?.cache_read, p?.output].every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0));
  if (!ok) throw new Error(`ARCHIVE_PRICES=${file} is not a price table. Hint: {"asOf":"YYYY-MM-DD","source":"…","models":{"<model>":{"input":0.3,"cache_read":0.075,"output":2.5}}}`);
  return t as PriceTable;
}

/** An estimate: dollars for the priced models, and the models left out for want of a price. */
export interface CostEstimate {
  dollars: number;
  priced: string[];
  unpriced: string[];
  asOf: string;
}

/** The estimated cost of usage by model; `undefined` when no model of it has a price. */
export function estimateCost(byModel: Record<string, TokenCounts>, table: PriceTable = PRICES): CostEstimate | undefined {
  let dollars = 0;
  const priced: string[] = [];
  const unpriced: string[] = [];
  for (const [model, u] of Object.entries(byModel)) {
    const p = Object.hasOwn(table.models, model) ? table.models[model] : undefined;
    if (!p) {
      unpriced.push(model);
      continue;
    }
    priced.push(model);
    dollars += (u.input * p.input + u.cache_read * p.cache_read + u.output * p.output) / 1_000_000;
  }
  return priced.length > 0 ? { dollars, priced, unpriced, asOf: table.asOf } : undefined;
}

/** The estimate in words, always labelled as one, with its date and what it leaves out. */
export function costWords(e: CostEstimate): string {
  const amount = e.dollars < 0.01 ? 'under $0.01' : `$${e.dollars.toFixed(2)}`;
  const left = e.unpriced.length > 0 ? `; ${e.unpriced.join(', ')} not counted (no price)` : '';
  return `about ${amount} at API list prices of ${e.asOf} (an estimate, not a bill${left})`;
}
