/**
 * `~` in a path setting. A shell expands `~` only unquoted and at the start of a word, so a value quoted in a
 * crontab, a systemd unit or a .env file reaches us as is: `ARCHIVE_OUT_DIR=~` once made a folder named `~` in the
 * project. `~` and `~/…` are expanded here; `~user` is left as written (the out dir check refuses it).
 */
import os from 'node:os';
import path from 'node:path';

/** `~` and `~/…` as the shell would have expanded them; anything else unchanged. */
export function expandHome(given: string, home: string = process.env.HOME || os.homedir()): string {
  if (given === '~') return home;
  if (given.startsWith('~/')) return path.join(home, given.slice(2));
  return given;
}
