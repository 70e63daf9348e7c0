/**
 * The search page's filter panels, as data: which groups, in which order, with which values and counts, and the
 * `filters` option Pagefind's `search()` takes for what is ticked. Values are whatever the pages tagged (a
 * workspace path, a model name, a tool name from the transcript): they are plain strings here and the page shows
 * them as text. Pure: no DOM, unit-tested.
 */

import { stepStatusLabel, stepTypeLabel } from '../archive/labels.ts';

/** Counts per value per filter group, as `pagefind.filters()` and `search().filters` return them. */
export type FilterCounts = Record<string, Record<string, number>>;

/** What is ticked: group → values. */
export type FilterSelection = Map<string, Set<string>>;

/** One value of a group as shown: its count under the current query and whether it is ticked. */
export interface FilterValueView {
  value: string;
  count: number;
  selected: boolean;
}

/** One group as shown. */
export interface FilterGroupView {
  /** The group's key in the index (`step type`). */
  name: string;
  /** Its label (`Step type`). */
  label: string;
  values: FilterValueView[];
}

/**
 * The groups the pages tag, in the order the panel lists them; any other group follows, by name. The page draws
 * these before their values load (values load when a group is first opened).
 */
export const FILTER_ORDER = ['product', 'workspace', 'session', 'outcome', 'model', 'tool', 'step type', 'status', 'session kind'];

/**
 * A value as the panel names it: a step type or status by its human name (`PLANNER_RESPONSE` → `Model reply`,
 * `CORTEX_STEP_TYPE_RUN_COMMAND` → `Command result`, `DONE` → `Done`), as the step pages name them; any other value
 * as it is. The value itself is what Pagefind filters on, and the panel keeps it in the label's title.
 */
export function filterValueLabel(group: string, value: string): string {
  if (group === 'step type') return stepTypeLabel(value);
  if (group === 'status') return stepStatusLabel(value);
  return value;
}

/** A group's label: its key with a capital. */
export function filterLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function groupRank(name: string): number {
  const i = FILTER_ORDER.indexOf(name);
  return i < 0 ? FILTER_ORDER.length : i;
}

/**
 * The panels for `available` (every group and value of the index), with counts from `current` (the last search's
 * counts; `available` before any search). Values by count, most first, then by name; a ticked value is always
 * listed, even with no count.
 */
export function filterGroups(available: FilterCounts, current: FilterCounts, selection: FilterSelection): FilterGroupView[] {
  const names = [...new Set([...Object.keys(available), ...selection.keys()])];
  names.sort((a, b) => groupRank(a) - groupRank(b) || a.localeCompare(b));
  return names.map((name) => {
    const ticked = selection.get(name) ?? new Set<string>();
    const values = [...new Set([...Object.keys(available[name] ?? {}), ...ticked])].map((value) => ({
      value,
      count: Object.hasOwn(current[name] ?? {}, value) ? (current[name]?.[value] ?? 0) : 0,
      selected: ticked.has(value),
    }));
    values.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
    return { name, label: filterLabel(name), values };
  });
}

/**
 * Pagefind's `filters` option for the ticked values: a page matches when, in every group with a ticked value, it
 * carries any of that group's ticked values (a step has one workspace: ticking two means either).
 */
export function searchFilters(selection: FilterSelection): Record<string, { any: string[] }> {
  const filters: Record<string, { any: string[] }> = {};
  for (const [name, values] of selection) if (values.size > 0) filters[name] = { any: [...values] };
  return filters;
}

/** True when some value is ticked. */
export function hasSelection(selection: FilterSelection): boolean {
  return [...selection.values()].some((values) => values.size > 0);
}
