/**
 * What an exit code says, for the places that show one ("exit 1", "failed · exit -1073741510"). Pure, no `astro:*`.
 *
 * Windows reports a process ended by the system with its NTSTATUS as a signed 32-bit exit code, a number nobody reads:
 * the CLI sessions in real-db end background tasks with `exit code: -1073741510` (0xC000013A, stopped with Ctrl+C),
 * and real 86033144 has `1073807364` (0x40010004, DBG_TERMINATE_PROCESS: terminated, as when its terminal closes).
 * Those are shown in hex with their meaning; the call still counts as failed, as its non-zero code says. Shells use
 * 128+N for a process killed by signal N, and 126/127 for a command that could not run.
 */

const NAMED: ReadonlyMap<number, string> = new Map([
  [126, 'not executable'],
  [127, 'command not found'],
  [130, 'SIGINT, Ctrl+C'],
  [137, 'SIGKILL, killed'],
  [143, 'SIGTERM, terminated'],
  [0xc000013a, 'Ctrl+C'],
  [0x40010004, 'terminated'],
  [0xc0000005, 'access violation'],
  [0xc00000fd, 'stack overflow'],
  [0xc0000409, 'fail-fast exit'],
  [0xc0000135, 'DLL not found'],
  [0xc0000142, 'DLL failed to initialise'],
]);

/** Codes at or past this size are NTSTATUS values, read in hex (0xC000013A), never as decimals. */
const STATUS_SIZE = 0x10000000;

/** The meaning of `code` in words, e.g. "0xC000013A, Ctrl+C", or undefined for an ordinary code such as 1. */
export function exitMeaning(code: number): string | undefined {
  if (!Number.isInteger(code)) return undefined;
  const unsigned = code >>> 0;
  const isStatus = Math.abs(code) >= STATUS_SIZE && code >= -0x80000000 && code <= 0xffffffff;
  const name = NAMED.get(isStatus ? unsigned : code);
  const hex = isStatus ? `0x${unsigned.toString(16).toUpperCase().padStart(8, '0')}` : undefined;
  return [hex, name].filter(Boolean).join(', ') || undefined;
}

/** "exit 1", or "exit -1073741510 (0xC000013A, Ctrl+C)" where the code has a meaning worth naming. */
export function exitLabel(code: number): string {
  const meaning = exitMeaning(code);
  return meaning ? `exit ${code} (${meaning})` : `exit ${code}`;
}
