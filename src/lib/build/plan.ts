/**
 * The plan phase (incremental builds): before Astro starts, every session's reuse key is compared with the last
 * successful build into the same out dir; the folders of unchanged sessions are set aside (hard links from the live
 * site, which is only read) and not rendered again, and only search shards holding a changed session are
 * re-indexed (`src/lib/archive/incremental.ts`). The big builds are split between render processes here too. Any
 * doubt renders everything.
 */
import type { ArchiveInputs } from '../archive/inputs.ts';
import {
  PLAN_ENV,
  abandonBuild,
  assignRenderParts,
  discoveryDigest,
  planBuild,
  sessionReuseKeys,
  siteFingerprint,
  whySomethingToDo,
  type BuildPlan,
  type PlanOptions,
} from '../archive/incremental.ts';
import type { BuildContext } from './context.ts';
import { precompressSetting } from './precompress.ts';
import { clearBuildFolders } from './publish.ts';
import { siteRecordDir } from './site-record.ts';
import { renderParts, renderProcessCount } from './render.ts';

/** The plan, and how many render processes carry it out. */
export interface PlannedBuild {
  /** Undefined when planning failed: every session is rendered. */
  plan: BuildPlan | undefined;
  renderParts: number;
  /** True when the served site is already what this build would write: nothing is rendered, indexed or published. */
  nothingToDo?: boolean;
  /** The linking of the reused folders (`planBuild`): resolves with the sessions whose folder was not as published. */
  linked?: Promise<string[]>;
}

/**
 * Decide which sessions' pages to reuse and how many processes render the rest; on any error, plan a full build
 * (correctness first). Puts the plan's file into the render processes' environment. With nothing to do it returns
 * before `beforeWriting` (by default the clearing of old build folders; the build adds the out dir's whole proof):
 * a build that writes nothing reads nothing of the out dir but its mark and top.
 */
export async function planPhase(
  ctx: BuildContext,
  inputs: ArchiveInputs,
  options?: PlanOptions,
  beforeWriting: () => Promise<void> = () => clearBuildFolders(ctx.folders, siteRecordDir(ctx.env)),
): Promise<PlannedBuild> {
  const started = Date.now();
  let keyed;
  let discovery = '';
  let keysFailed: unknown;
  try {
    keyed = await sessionReuseKeys(inputs, await siteFingerprint(ctx.projectRoot), {
      base: ctx.env.ARCHIVE_BASE ?? '',
      redactionEnabled: inputs.redactionEnabled,
      isDemo: inputs.isDemo,
      roots: inputs.discovery.roots.map((r) => r.path).sort(),
      precompress: [...precompressSetting(ctx.env)],
    }, ctx.cacheDir);
    discovery = discoveryDigest(inputs);
    if (whySomethingToDo(ctx.cacheDir, ctx.folders.live, { ...keyed, discovery }) === undefined) {
      console.log(
        `incremental: nothing to do: ${Object.keys(keyed.keys).length} sessions, the code and the settings unchanged since ` +
          `the build serving ${ctx.folders.live}; planned in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      return { plan: undefined, renderParts: 0, nothingToDo: true };
    }
  } catch (error) {
    keysFailed = error;
  }
  // Work to do: the out dir's whole proof and the clearing of old build folders come first (a refusal stops here).
  await beforeWriting();
  try {
    if (keysFailed || !keyed) throw keysFailed;
    const { plan, planFile, linked } = await planBuild(ctx.cacheDir, ctx.folders, { ...keyed, discovery }, (toRender) => {
      const count = renderProcessCount(toRender.reduce((sum, id) => sum + (keyed.bytes[id] ?? 0), 0), toRender.length, ctx.env);
      return count > 1 ? assignRenderParts(toRender, keyed.bytes, count) : undefined;
    }, options);
    ctx.env[PLAN_ENV] = planFile;
    const total = Object.keys(keyed.keys).length;
    console.log(
      `incremental: reused pages of ${plan.reused.length} unchanged sessions, rendering ${total - plan.reused.length}` +
        `${plan.whyNone ? ` (${plan.whyNone})` : ''}; planned in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return { plan, renderParts: plan.parts ? Math.max(...Object.values(plan.parts)) + 1 : 1, linked };
  } catch (error) {
    abandonBuild(ctx.cacheDir);
    delete ctx.env[PLAN_ENV];
    console.warn(`incremental: could not plan a partial build (${String(error)}); rendering every session`);
    return { plan: undefined, renderParts: 1 };
  }
}

/**
 * The render phase of a planned build, while the reused folders are linked on the other core. When a reused folder
 * turns out not to be as published (a page deleted or cut short by hand since), this try's pages are thrown away
 * and the build plans again, rendering that session, with the linking done first this time. Returns the plan the
 * site was rendered with.
 */
export async function renderWhileLinking(ctx: BuildContext, inputs: ArchiveInputs, planned: PlannedBuild): Promise<PlannedBuild> {
  let rendered: unknown;
  try {
    await renderParts(ctx, planned.renderParts);
  } catch (error) {
    rendered = error;
  }
  // Always waited for, even when rendering failed: the folders are cleared after this phase.
  const notAsPublished = await (planned.linked ?? Promise.resolve([]));
  if (rendered) throw rendered;
  if (notAsPublished.length === 0) return planned;
  console.warn(
    `incremental: ${notAsPublished.length} reused session folders are not as published (e.g. ${notAsPublished[0]}); ` +
      'planning again and rendering them',
  );
  const again = await planPhase(ctx, inputs, { distrust: notAsPublished, linkFirst: true });
  await renderParts(ctx, again.renderParts);
  return again;
}
