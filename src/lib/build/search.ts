/**
 * The index phase: the Pagefind search step over the whole new site (`src/integrations/pagefind.ts`). A build in
 * one process runs it inside that process at `astro:build:done`; a split build runs it here, once, after gathering.
 */
import { runSearchStep } from '../../integrations/pagefind.ts';
import { PLAN_ENV } from '../archive/incremental.ts';
import type { BuildContext } from './context.ts';

/** Index the staging folder when the build was split between `renderParts` processes (else already done). */
export async function indexSearch(ctx: BuildContext, renderParts: number): Promise<void> {
  if (renderParts <= 1) return;
  // The search step reads the plan (reused sessions to put back, shard keys) from this process's environment.
  if (ctx.env[PLAN_ENV]) process.env[PLAN_ENV] = ctx.env[PLAN_ENV];
  await runSearchStep(ctx.folders.staging, ctx.cacheDir, { info: (message) => console.log(`[search] ${message}`) });
}
