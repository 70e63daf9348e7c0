/**
 * Summarise V8 `.cpuprofile` files (from `node --cpu-prof`): self time by source file (node_modules collapsed to
 * the package) and by function, so the report can say where a build's time goes in numbers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Buckets for the report, matched against the file label of the nearest frame that has a source file. */
const CATEGORIES: [string, RegExp][] = [
  ['highlight (shiki)', /shiki|oniguruma|textmate|highlight/],
  ['markdown (micromark/remark/rehype)', /micromark|mdast|remark|rehype|hast|unified|markdown|vfile|property-information|character-entities/],
  ['redaction (secretlint)', /secretlint|redact|textlint/],
  ['reader (src/lib/brain)', /lib\/brain|chunks\/session|chunks\/merge/],
  ['diff', /pkg:diff|chunks\/diff/],
  ['astro render + pages', /pkg:astro|prerender|jsx-runtime|src\/pages|src\/components|src\/layouts|src\/lib/],
  ['vite/rolldown bundling', /pkg:vite|rolldown|esbuild|lightningcss|pkg:@rolldown/],
  ['node module loading', /node:internal\/modules|amaro/],
  ['node fs/streams', /node:internal\/fs|node:fs|stream/],
];
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
  /** Self time with native frames charged to the nearest JS caller's bucket. */
  byCategory: { name: string; ms: number }[];
}

function fileLabel(url: string, functionName: string, projectRoot: string): string {
  // V8's pseudo frames: (idle), (program), (garbage collector), (root).
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const p = url.replace(/^file:\/\//, '');
  const nm = p.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = p.slice(nm + '/node_modules/'.length).split('/');
    return `pkg:${rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  // Astro's prerender bundle: name the chunk, not the run folder it happens to live in.
  const pre = p.indexOf('/.prerender/');
  if (pre >= 0) return `prerender:${p.slice(pre + '/.prerender/'.length).replace(/[_.-][A-Za-z0-9_-]{8}\.mjs$/, '.mjs')}`;
  return p.startsWith(projectRoot) ? path.relative(projectRoot, p) : p;
}

/** Read every `.cpuprofile` in `dir`. */
export function summariseProfiles(dir: string, projectRoot: string, top = 20): ProfileSummary {
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byCategory = new Map<string, number>();
  let totalMs = 0;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.cpuprofile')) continue;
    const profile = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const category = new Map<number, string>();
    const categoryOf = (id: number): string => {
      const known = category.get(id);
      if (known) return known;
      const node = nodes.get(id);
      let label: string;
      if (!node) label = 'other';
      else if (node.callFrame.url) {
        const file = fileLabel(node.callFrame.url, node.callFrame.functionName, projectRoot);
        label = CATEGORIES.find(([, re]) => re.test(file))?.[0] ?? `other JS`;
      } else if (node.callFrame.functionName.startsWith('(')) label = node.callFrame.functionName;
      else {
        const up = parent.get(id);
        label = up === undefined ? '(native)' : categoryOf(up);
        if (label.startsWith('(') && !label.startsWith('(native')) label = '(native)';
      }
      category.set(id, label);
      return label;
    };
    for (let i = 0; i < profile.samples.length; i++) {
      const node = nodes.get(profile.samples[i] as number);
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      if (!node) continue;
      totalMs += ms;
      const file = fileLabel(node.callFrame.url, node.callFrame.functionName, projectRoot);
      byFile.set(file, (byFile.get(file) ?? 0) + ms);
      const fn = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
      const cat = categoryOf(node.id);
      byCategory.set(cat, (byCategory.get(cat) ?? 0) + ms);
    }
  }
  const sorted = (m: Map<string, number>) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => ({ name, ms: Math.round(ms) }));
  return { totalMs: Math.round(totalMs), byFile: sorted(byFile), byFunction: sorted(byFunction), byCategory: sorted(byCategory) };
}
