/**
 * Loaded into every render process (`node --import`, see `render.ts`): when the build that started it is gone
 * (killed with SIGKILL, say, so it could not stop its children), the render process ends too. Left running, it
 * would write on into the staging folder that the next build, which then holds the lock, is clearing and filling.
 */
import { setInterval } from 'node:timers';

const startedBy = process.ppid;
// The parent's death makes the process a child of init (or of a subreaper): its ppid changes.
setInterval(() => {
  if (process.ppid !== startedBy) process.exit(1);
}, 500).unref();
