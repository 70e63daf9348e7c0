/**
 * Static SVG charts made at build time: pure functions from numbers to an SVG string. No chart service, no
 * script, no inline style: colours come from CSS classes (`bar`, `label`, `axis`, …) that the site's stylesheet
 * maps to its light/dark variables and `currentColor`. Every label is escaped; each chart carries `role="img"`,
 * an `aria-label`, a `<title>` and a `<desc>`, and pages show the same numbers as a table beside it.
 */
import { escapeHtml } from '../render/escape.ts';

/** One bar. */
export interface Datum {
  label: string;
  value: number;
}

/** What every chart needs. */
export interface ChartOptions {
  /** Unique within the page (ids of title/desc). */
  id: string;
  title: string;
  /** One sentence saying what the chart shows (the `<desc>`). */
  desc: string;
}

const W = 720;
/** Room a date label needs on the time axis (px of the 720-wide view box). */
const LABEL_W = 80;

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

function round(n: number): string {
  return String(Math.round(n * 10) / 10);
}

function frame(o: ChartOptions, height: number, body: string): string {
  const id = o.id.replace(/[^A-Za-z0-9_-]/g, '-');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" ` +
    `role="img" aria-label="${escapeHtml(o.title)}" aria-describedby="${id}-desc" class="chart-svg">` +
    `<title id="${id}-title">${escapeHtml(o.title)}</title><desc id="${id}-desc">${escapeHtml(o.desc)}</desc>` +
    body +
    `</svg>`
  );
}

/** A whole step size for an axis grid: 1, 2, 2.5 (from 10 up) or 5 times a power of ten, at least 1. */
export function niceStep(raw: number): number {
  if (raw <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw && Number.isInteger(m * p)) return m * p;
  return 10 * p;
}

/**
 * Horizontal bars, one per datum, labelled on the left and valued on the right: for categories (tools, models,
 * products, length buckets). Long labels are cut (the table beside the chart has them whole).
 */
export function horizontalBarChart(data: Datum[], o: ChartOptions): string {
  const row = 22;
  const top = 8;
  const labelW = 210;
  const valueW = 60;
  const plotW = W - labelW - valueW - 10;
  const height = top * 2 + Math.max(1, data.length) * row;
  const max = Math.max(0, ...data.map((d) => d.value));
  const parts: string[] = [`<line class="axis" x1="${labelW}" y1="${top}" x2="${labelW}" y2="${height - top}"/>`];
  data.forEach((d, i) => {
    const y = top + i * row;
    const w = max > 0 ? (d.value / max) * plotW : 0;
    const label = d.label.length > 30 ? `${d.label.slice(0, 29)}…` : d.label;
    parts.push(
      `<g><title>${escapeHtml(`${d.label}: ${num(d.value)}`)}</title>` +
        `<text class="label" x="${labelW - 6}" y="${y + row / 2 + 4}" text-anchor="end">${escapeHtml(label)}</text>` +
        `<rect class="bar" x="${labelW}" y="${y + 3}" width="${round(Math.max(w, d.value > 0 ? 1 : 0))}" height="${row - 6}" rx="2"/>` +
        `<text class="value" x="${round(labelW + w + 6)}" y="${y + row / 2 + 4}">${num(d.value)}</text></g>`,
    );
  });
  if (data.length === 0) parts.push(`<text class="tick" x="${labelW + 8}" y="${top + 15}">no data</text>`);
  return frame(o, height, parts.join(''));
}

/**
 * Vertical bars over time (one per day or month, in order), with a value axis and a few date ticks: for sessions
 * and steps per day.
 */
export function columnChart(data: Datum[], o: ChartOptions): string {
  const height = 220;
  const left = 48;
  const right = 10;
  const top = 12;
  const bottom = 36;
  const plotW = W - left - right;
  const plotH = height - top - bottom;
  // Four grid steps of a whole, "nice" size (counts: never a 0.3 tick).
  const step = niceStep(Math.ceil(Math.max(0, ...data.map((d) => d.value)) / 4));
  const max = step * 4;
  const parts: string[] = [];
  for (let k = 0; k <= 4; k++) {
    const v = (max / 4) * k;
    const y = top + plotH - (v / max) * plotH;
    parts.push(`<line class="grid" x1="${left}" y1="${round(y)}" x2="${W - right}" y2="${round(y)}"/>`);
    parts.push(`<text class="tick" x="${left - 6}" y="${round(y + 3)}" text-anchor="end">${num(v)}</text>`);
  }
  parts.push(`<line class="axis" x1="${left}" y1="${top + plotH}" x2="${W - right}" y2="${top + plotH}"/>`);
  const n = Math.max(1, data.length);
  const slot = plotW / n;
  const barW = Math.max(1, slot * 0.8);
  const every = Math.max(1, Math.ceil(LABEL_W / slot));
  data.forEach((d, i) => {
    const h = (d.value / max) * plotH;
    const x = left + i * slot + (slot - barW) / 2;
    parts.push(
      `<g><title>${escapeHtml(`${d.label}: ${num(d.value)}`)}</title>` +
        `<rect class="bar" x="${round(x)}" y="${round(top + plotH - h)}" width="${round(barW)}" height="${round(h)}"/></g>`,
    );
    // Every `every`-th label, plus the last one when it does not crowd the one before.
    if (i % every === 0 || (i === n - 1 && (i % every) * slot >= LABEL_W)) {
      parts.push(`<text class="tick" x="${round(x + barW / 2)}" y="${height - bottom + 16}" text-anchor="middle">${escapeHtml(d.label)}</text>`);
    }
  });
  if (data.length === 0) parts.push(`<text class="tick" x="${left + 8}" y="${top + 20}">no data</text>`);
  return frame(o, height, parts.join(''));
}
