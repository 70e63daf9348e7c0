/**
 * The session tree in a split build: render processes after the first read only their own sessions, yet their pages
 * name parents and subagents the first process read. The first hands every session's tree inputs over (a file beside
 * the plan, named by the plan's id); the others build the same tree from it. On the demo family, with the parent in
 * part 0 and its subagents in part 1.
 */
import { readDemoSessions } from '../helpers/homes.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PART_ENV, PLAN_ENV, shareFamilyInputs, sharedFamilyInputs } from '../../src/lib/archive/incremental.ts';
import { familyEvidence } from '../../src/lib/family/evidence.ts';
import { buildSessionTree, type TreeInput } from '../../src/lib/family/tree.ts';

const PARENT = '5b1e0c2a-7d4f-4c1e-9a63-2f8d4e6b1c07';
const WRITER = 'a3c9e1f4-2b7d-4e58-8c16-9d0f3b2a7e51';
const CHECKER = 'c7d2f8b3-6e1a-4f94-b2c5-0a8e7d3f1b96';

const dir = mkdtempSync(path.join(os.tmpdir(), 'agy-family-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const planFile = path.join(dir, 'plan.json');
const env = (part: number): NodeJS.ProcessEnv => ({ [PLAN_ENV]: planFile, [PART_ENV]: String(part) });

async function demoInputs(): Promise<TreeInput[]> {
  const sessions = await readDemoSessions();
  return sessions.map((s) => ({ id: s.id, title: s.meta.title, createdAt: s.meta.createdAt, errorCount: s.meta.errorCount, family: familyEvidence(s) }));
}

describe('family inputs handed from render part 0 to the others', () => {
  it('gives a later part the tree part 0 builds, and waits for this plan’s inputs, not an earlier build’s', async () => {
    const all = await demoInputs();
    const parts = Object.fromEntries(all.map((s) => [s.id, s.id === WRITER || s.id === CHECKER ? 1 : 0]));
    writeFileSync(planFile, JSON.stringify({ planId: 'this-build', outDir: dir, siteDir: dir, reusedDir: dir, folders: {}, keys: {}, reused: [], shared: '', parts }));
    // What the later part read itself: its own sessions only. Its subagents' parent is not among them.
    const own = all.filter((s) => parts[s.id] === 1);
    expect(buildSessionTree(own).nodes.get(WRITER)?.parent?.archived).toBe(false);

    // An earlier build's file is there; this build's part 0 writes its own a moment later.
    writeFileSync(path.join(dir, 'family-inputs.json'), JSON.stringify({ planId: 'an-earlier-build', sessions: own }));
    const waiting = sharedFamilyInputs(env(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    shareFamilyInputs(all, env(0));
    const shared = await waiting;

    expect(shared?.map((s) => s.id)).toEqual(all.map((s) => s.id));
    expect(buildSessionTree(shared ?? [])).toEqual(buildSessionTree(all));
    expect(buildSessionTree(shared ?? []).nodes.get(WRITER)?.parent).toMatchObject({ id: PARENT, archived: true });
    // Part 0 read every session itself.
    expect(await sharedFamilyInputs(env(0))).toBeUndefined();
  });
});
