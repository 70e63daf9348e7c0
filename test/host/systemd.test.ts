/**
 * The service recipe of `hosting/` (issue 31 point 4): the host service, and the timer that snapshots and rebuilds,
 * pass `systemd-analyze verify` (unknown keys, bad values, a command that is not there: it prints each). Skipped,
 * loudly, where systemd is not installed.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/build-site.ts';
import { installed } from '../helpers/hosting.ts';

const UNITS = ['agy-archive-host.service', 'agy-archive.service', 'agy-archive.timer'];
const analyze = installed('systemd-analyze');
if (!analyze) console.warn('\n!!! systemd-analyze is not installed: the systemd units of hosting/ are NOT verified.\n');

describe.skipIf(!analyze)('hosting/ systemd units', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agy-units-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Verify `units` copied into `dir`; where npm is not /usr/bin/npm, the units name the npm this machine has. */
  function verify(units: string[]): { code: number | null; errors: string } {
    const npm = existsSync('/usr/bin/npm') ? '/usr/bin/npm' : installed('npm');
    for (const unit of units) {
      if (!existsSync(path.join(dir, unit))) copyFileSync(path.join(projectRoot, 'hosting', unit), path.join(dir, unit));
      if (npm) writeFileSync(path.join(dir, unit), readFileSync(path.join(dir, unit), 'utf8').replaceAll('/usr/bin/npm ', `${npm} `));
    }
    const result = spawnSync(analyze!, ['verify', ...units.map((u) => path.join(dir, u))], { encoding: 'utf8' });
    return { code: result.status, errors: result.stderr.trim() };
  }

  it('the host service, the build service and its timer verify without a word', () => {
    expect(verify(UNITS)).toEqual({ code: 0, errors: '' });
  });

  it('a unit with a typo does not (the check can fail)', () => {
    writeFileSync(path.join(dir, 'typo.service'), readFileSync(path.join(projectRoot, 'hosting', 'agy-archive.service'), 'utf8').replace('Type=oneshot', 'Tpye=oneshot'));
    expect(verify(['typo.service']).errors).toMatch(/Unknown key 'Tpye'/);
  });

  it('run what the README says: the host with nginx on loopback, the timer every 5 minutes', () => {
    const host = readFileSync(path.join(projectRoot, 'hosting', 'agy-archive-host.service'), 'utf8');
    expect(host).toMatch(/^ExecStart=\/usr\/bin\/npm run --silent host -- --server nginx --port 8080$/m);
    expect(readFileSync(path.join(projectRoot, 'hosting', 'agy-archive.timer'), 'utf8')).toMatch(/^OnUnitActiveSec=5min$/m);
    expect(readFileSync(path.join(projectRoot, 'hosting', 'agy-archive.service'), 'utf8')).toMatch(/^ExecStart=\/usr\/bin\/npm run --silent build$/m);
  });
});
