/**
 * A session's commands grouped by what was run (issue 28: the longest real session ran 260 commands, 151 distinct,
 * and its list repeated each retry as a row of its own): one group per command text, with how often it ran, how
 * often it failed, its exit codes and the steps that ran it, in the order each was first run. Pure, no `astro:*`.
 */
import type { CommandRow } from './schemas.ts';

/** One command as run one or more times. */
export interface CommandGroup {
  /** The command as its first run recorded it (bounded like `CommandRow.command`). */
  command: string;
  /** True when some run's preview was cut. */
  cut: boolean;
  /** Working folders it ran in, in order of first use. */
  cwds: string[];
  /** Its runs, in the order run. */
  runs: CommandRow[];
  /** Runs that failed (`CommandRow.failed`, the one failure rule). */
  failed: number;
  /** Exit codes seen, each once, in order of first appearance. */
  exitCodes: number[];
}

/** What makes two runs the same command: the text with its runs of white space made one space. */
export function commandKey(command: string): string {
  return command.replace(/\s+/g, ' ').trim();
}

/** `rows` (in the order run) as one group per distinct command, in the order each was first run. */
export function groupCommands(rows: readonly CommandRow[]): CommandGroup[] {
  const byKey = new Map<string, CommandGroup>();
  for (const row of rows) {
    const key = commandKey(row.command);
    let group = byKey.get(key);
    if (!group) {
      group = { command: row.command, cut: false, cwds: [], runs: [], failed: 0, exitCodes: [] };
      byKey.set(key, group);
    }
    group.runs.push(row);
    if (row.cut) group.cut = true;
    if (row.failed) group.failed++;
    if (row.cwd !== undefined && !group.cwds.includes(row.cwd)) group.cwds.push(row.cwd);
    if (row.exitCode !== undefined && !group.exitCodes.includes(row.exitCode)) group.exitCodes.push(row.exitCode);
  }
  return [...byKey.values()];
}
