/**
 * `npm run build`: runs `astro build` (which runs the Pagefind step as an integration) in a child Node process with
 * a heap sized for 100k pages, inheriting stdio and forwarding the exit code. Bad input never fails a build: the
 * reader records problems; only a broken setup does.
 *
 * Env: GEMINI_HOME / BRAIN_ROOTS (inputs), ARCHIVE_REDACT=off, ARCHIVE_BASE, ARCHIVE_OUT_DIR, ARCHIVE_CACHE_DIR,
 * ARCHIVE_MAX_OLD_SPACE_MB (default 8192).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const heapMb = Number(process.env.ARCHIVE_MAX_OLD_SPACE_MB) || 8192;
const astroBin = path.join(projectRoot, 'node_modules', 'astro', 'bin', 'astro.mjs');

const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, astroBin, 'build', ...process.argv.slice(2)], {
  cwd: projectRoot,
  stdio: 'inherit',
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
});
child.on('error', (error) => {
  console.error(`Could not start astro build: ${error.message}. Hint: run \`npm ci\` first.`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) console.error(`astro build was stopped by ${signal}`);
  process.exit(code ?? 1);
});
