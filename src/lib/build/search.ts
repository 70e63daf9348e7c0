/**
 * The index phase: the Pagefind search step over the whole new site (`src/integrations/pagefind.ts`), here, once
 * the render parts are gathered and the reused session folders linked (the render processes leave it to this
 * process: `SEARCH_STEP_ENV`). A plain `astro build` runs it inside Astro at `astro:build:done`.
 */
import { runSearchStep } from '../../integrations/pagefind.ts';
import { PLAN_ENV } from '../archive/incremental.ts';
import type { BuildContext } from './context.ts';

/** Index the staging folder. */
export async function indexSearch(ctx: BuildContext): Promise<void> {
  // The search step reads the plan (reused sessions to put back, shard keys) from this process's environment.
  if (ctx.env[PLAN_ENV]) process.env[PLAN_ENV] = ctx.env[PLAN_ENV];
  await runSearchStep(ctx.folders.staging, ctx.cacheDir, { info: (message) => console.log(`[search] ${message}`) });
}
