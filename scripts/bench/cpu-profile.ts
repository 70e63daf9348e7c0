/**
 * Summarise V8 `.cpuprofile` files (from `node --cpu-prof`): self time by source file (node_modules collapsed to
 * the package) and by function, so the report can say where a build's time goes in numbers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) by file and by function over every profile in `dir`, largest first. */
export interface ProfileSummary {
  totalMs: number;
  byFile: { name: string; ms: number }[];
  byFunction: { name: string; ms: number }[];
}

function fileLabel(url: string, projectRoot: string): string {
  if (!url) return '(native/idle/gc)';
  const p = url.replace(/^file:\/\//, '');
  const nm = p.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = p.slice(nm + '/node_modules/'.length).split('/');
    return `pkg:${rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  return p.startsWith(projectRoot) ? path.relative(projectRoot, p) : p;
}

/** Read every `.cpuprofile` in `dir`. */
export function summariseProfiles(dir: string, projectRoot: string, top = 20): ProfileSummary {
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.cpuprofile')) continue;
    const profile = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    for (let i = 0; i < profile.samples.length; i++) {
      const node = nodes.get(profile.samples[i] as number);
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      if (!node) continue;
      totalMs += ms;
      const file = fileLabel(node.callFrame.url, projectRoot);
      byFile.set(file, (byFile.get(file) ?? 0) + ms);
      const fn = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    }
  }
  const sorted = (m: Map<string, number>) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => ({ name, ms: Math.round(ms) }));
  return { totalMs: Math.round(totalMs), byFile: sorted(byFile), byFunction: sorted(byFunction) };
}
