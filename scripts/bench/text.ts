/**
 * Deterministic text for the synthetic home: a small PRNG, prose, identifiers, code in a few languages, command
 * output. Varied enough that a content-hash highlight cache does not hit on everything, repetitive enough (a pool
 * of files that get viewed and rewritten again) that it hits as often as it would on a real history.
 */

/** mulberry32: tiny, fast, good enough for test data, and the same sequence for the same seed on every machine. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  /** Pick a key by weight. */
  weighted<K extends string>(table: Readonly<Record<K, number>>): K {
    const entries = Object.entries(table) as [K, number][];
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.next() * total;
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return (entries[entries.length - 1] as [K, number])[0];
  }
  uuid(): string {
    const hex = (n: number) => {
      let s = '';
      for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(0, 15)];
      return s;
    };
    return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[this.int(0, 3)]}${hex(3)}-${hex(12)}`;
  }
}

const WORDS = (
  'the a file build test update component page layout session error value config style function module index ' +
  'render data request check output result change fix add remove review plan step path server client route ' +
  'cache token order user product gallery image video price search filter list table column row header footer ' +
  'now then next first verify confirm ensure because so that with from into while after before this which new'
).split(' ');
const VERBS = 'get set load parse build render fetch update compute validate merge format resolve apply read write sync normalize collect emit handle'.split(' ');
const NOUNS = 'user session order invoice widget config token cache report item product gallery price stream queue job payload record schema route handler client server vector matrix layout theme locale asset chunk batch ledger account'.split(' ');
const TYPES = 'string number boolean Date Buffer Map<string, number> Set<string> Record<string, unknown> unknown[]'.split(' ');
const DIRS = 'src src/lib src/components src/pages src/utils scripts tests app app/api packages/core lib server'.split(' ');

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Text helpers bound to one PRNG. */
export class TextGen {
  readonly rng: Rng;
  private counter = 0;
  constructor(rng: Rng) {
    this.rng = rng;
  }

  sentence(min = 8, max = 22): string {
    const n = this.rng.int(min, max);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(this.rng.pick(WORDS));
    if (this.rng.chance(0.3)) words.splice(this.rng.int(0, words.length), 0, `\`${this.ident()}\``);
    return `${cap(words.join(' '))}.`;
  }

  paragraph(sentences = 3): string {
    const out: string[] = [];
    for (let i = 0; i < sentences; i++) out.push(this.sentence());
    return out.join(' ');
  }

  /** A fresh-looking identifier: `loadOrderCache17`. The counter keeps identifiers varied across the home. */
  ident(): string {
    const n = this.rng.chance(0.4) ? String(this.counter++ % 997) : '';
    return `${this.rng.pick(VERBS)}${cap(this.rng.pick(NOUNS))}${this.rng.chance(0.5) ? cap(this.rng.pick(NOUNS)) : ''}${n}`;
  }

  typeName(): string {
    return `${cap(this.rng.pick(NOUNS))}${cap(this.rng.pick(['Options', 'State', 'Entry', 'Props', 'Result', 'Info']))}`;
  }

  /** A path in the user's workspace with an extension matching `lang`. */
  path(workspace: string, lang: CodeLang): string {
    const ext = { ts: 'ts', py: 'py', css: 'css', sh: 'sh', json: 'json', md: 'md' }[lang];
    const base = lang === 'md' ? this.rng.pick(['README', 'NOTES', 'CHANGELOG', 'design']) : `${this.rng.pick(NOUNS)}-${this.rng.pick(NOUNS)}`;
    return `${workspace}/${this.rng.pick(DIRS)}/${base}.${ext}`;
  }

  lang(): CodeLang {
    return this.rng.weighted({ ts: 50, py: 20, css: 12, sh: 5, json: 6, md: 7 });
  }

  /** About `lines` lines of code in `lang`. */
  code(lang: CodeLang, lines: number): string {
    const out: string[] = [];
    if (lang === 'ts') {
      out.push(`import { ${this.ident()}, ${this.ident()} } from './${this.rng.pick(NOUNS)}.ts';`);
      out.push(`import type { ${this.typeName()} } from '../types.ts';`, '');
      while (out.length < lines) out.push(...this.tsBlock());
    } else if (lang === 'py') {
      out.push(`import ${this.rng.pick(['os', 'json', 're', 'sys', 'pathlib'])}`, `from ${this.rng.pick(NOUNS)} import ${this.ident()}`, '');
      while (out.length < lines) out.push(...this.pyBlock());
    } else if (lang === 'css') {
      while (out.length < lines) out.push(...this.cssBlock());
    } else if (lang === 'sh') {
      out.push('#!/usr/bin/env bash', 'set -euo pipefail', '');
      while (out.length < lines) out.push(this.command());
    } else if (lang === 'json') {
      out.push('{');
      while (out.length < lines - 1) out.push(`  "${this.ident()}": ${this.rng.chance(0.5) ? this.rng.int(0, 9999) : `"${this.rng.pick(WORDS)}-${this.rng.pick(NOUNS)}"`},`);
      out.push(`  "${this.ident()}": true`, '}');
    } else {
      out.push(`# ${cap(this.rng.pick(NOUNS))} ${this.rng.pick(NOUNS)}`, '');
      while (out.length < lines) {
        out.push(this.rng.chance(0.2) ? `## ${this.sentence(2, 5)}` : `- ${this.sentence()}`);
        if (this.rng.chance(0.15)) out.push('', '```ts', ...this.tsBlock(), '```', '');
      }
    }
    return out.slice(0, Math.max(lines, 1)).join('\n');
  }

  private tsBlock(): string[] {
    const fn = this.ident();
    const a = this.rng.pick(NOUNS);
    const t = this.typeName();
    const v = `${this.rng.pick(NOUNS)}s`;
    const prop = this.rng.pick(NOUNS);
    const n = this.rng.int(2, 500);
    switch (this.rng.int(0, 3)) {
      case 0:
        return [
          `export function ${fn}(${a}: ${t}, limit = ${n}): ${this.rng.pick(TYPES)} {`,
          `  const ${v} = ${a}.${prop}s.filter((x) => x.${this.rng.pick(NOUNS)}Id !== undefined && x.size > limit);`,
          `  if (${v}.length === 0) return ${this.rng.pick(['undefined', 'null', '[]', "''", '0'])} as never;`,
          `  for (const ${prop} of ${v}) {`,
          `    ${prop}.${this.rng.pick(NOUNS)} = ${this.ident()}(${prop}, ${this.rng.int(0, 99)});`,
          '  }',
          `  return ${v}.map((x) => ({ ...x, ${prop}: String(x.${prop} ?? '${this.rng.pick(WORDS)}') }));`,
          '}',
          '',
        ];
      case 1:
        return [
          `export interface ${t} {`,
          `  /** ${this.sentence(4, 10)} */`,
          `  ${this.rng.pick(NOUNS)}Id: ${this.rng.pick(TYPES)};`,
          `  ${this.rng.pick(NOUNS)}?: ${this.rng.pick(TYPES)};`,
          `  ${this.ident()}: (${a}: ${this.rng.pick(TYPES)}) => Promise<void>;`,
          '}',
          '',
        ];
      case 2:
        return [
          `export async function ${fn}(${a}Id: string): Promise<${t} | undefined> {`,
          `  const response = await fetch(\`/api/${a}s/\${encodeURIComponent(${a}Id)}?limit=${n}\`);`,
          `  if (!response.ok) throw new Error(\`${fn} failed: \${response.status}\`);`,
          `  const body = (await response.json()) as { ${prop}: ${t}[] };`,
          `  return body.${prop}.find((entry) => entry.${this.rng.pick(NOUNS)}Id === ${a}Id);`,
          '}',
          '',
        ];
      default:
        return [
          `export class ${cap(fn)} {`,
          `  private readonly ${v} = new Map<string, ${t}>();`,
          `  ${this.rng.pick(VERBS)}(key: string, value: ${t}): void {`,
          `    if (this.${v}.size > ${n}) this.${v}.clear();`,
          `    this.${v}.set(key, value);`,
          '  }',
          '}',
          '',
        ];
    }
  }

  private pyBlock(): string[] {
    const fn = this.ident().replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const a = this.rng.pick(NOUNS);
    return [
      `def ${fn}(${a}, limit=${this.rng.int(1, 900)}):`,
      `    """${this.sentence(5, 12)}"""`,
      `    ${a}s = [x for x in ${a}.${this.rng.pick(NOUNS)}s if x.get("${this.rng.pick(NOUNS)}") is not None]`,
      `    if len(${a}s) > limit:`,
      `        raise ValueError(f"too many ${a}s: {len(${a}s)}")`,
      `    return {x["id"]: x for x in ${a}s}`,
      '',
    ];
  }

  private cssBlock(): string[] {
    const cls = `${this.rng.pick(NOUNS)}-${this.rng.pick(NOUNS)}${this.rng.chance(0.4) ? `-${this.rng.int(1, 40)}` : ''}`;
    return [
      `.${cls} {`,
      `  display: ${this.rng.pick(['grid', 'flex', 'block', 'inline-flex'])};`,
      `  gap: ${this.rng.int(0, 48)}px;`,
      `  color: #${this.rng.int(0, 0xffffff).toString(16).padStart(6, '0')};`,
      `  padding: ${this.rng.int(0, 4)}rem ${this.rng.int(0, 4)}rem;`,
      '}',
      '',
    ];
  }

  command(): string {
    switch (this.rng.int(0, 7)) {
      case 0:
        return `npm run ${this.rng.pick(['build', 'test', 'lint', 'dev', 'check'])}`;
      case 1:
        return `git ${this.rng.pick(['status', 'diff --stat', 'log --oneline -5', 'add -A && git commit -m "fix ' + this.rng.pick(NOUNS) + '"'])}`;
      case 2:
        return `grep -rn "${this.ident()}" ${this.rng.pick(DIRS)} | head -${this.rng.int(5, 50)}`;
      case 3:
        return `python3 scripts/${this.rng.pick(NOUNS)}_${this.rng.pick(VERBS)}.py --limit ${this.rng.int(1, 500)}`;
      case 4:
        return `ls -la ${this.rng.pick(DIRS)}`;
      case 5:
        return `npx vitest run tests/${this.rng.pick(NOUNS)}.test.ts`;
      case 6:
        return `curl -s http://localhost:${this.rng.int(3000, 9000)}/api/${this.rng.pick(NOUNS)}s | jq '.${this.rng.pick(NOUNS)}'`;
      default:
        return `cat ${this.rng.pick(DIRS)}/${this.rng.pick(NOUNS)}.${this.rng.pick(['ts', 'json', 'py', 'log'])}`;
    }
  }

  /** Terminal output of about `lines` lines. */
  commandOutput(lines: number): string {
    const out: string[] = [];
    while (out.length < lines) {
      switch (this.rng.int(0, 4)) {
        case 0:
          out.push(`${String(this.rng.int(0, 23)).padStart(2, '0')}:${String(this.rng.int(0, 59)).padStart(2, '0')}:${String(this.rng.int(0, 59)).padStart(2, '0')} [build] ${this.sentence(3, 8)}`);
          break;
        case 1:
          out.push(` ✓ tests/${this.rng.pick(NOUNS)}.test.ts (${this.rng.int(1, 40)} tests) ${this.rng.int(3, 900)}ms`);
          break;
        case 2:
          out.push(`dist/_astro/${this.rng.pick(NOUNS)}.${this.rng.int(0, 0xffffff).toString(36)}.js   ${(this.rng.next() * 90).toFixed(2)} kB │ gzip: ${(this.rng.next() * 30).toFixed(2)} kB`);
          break;
        case 3:
          out.push(`${this.rng.pick(['warning', 'error', 'info'])}: ${this.rng.pick(DIRS)}/${this.rng.pick(NOUNS)}.ts:${this.rng.int(1, 400)}:${this.rng.int(1, 80)} ${this.sentence(4, 10)}`);
          break;
        default:
          out.push(`-rw-r--r--  1 dev  staff  ${this.rng.int(10, 99999)} Jul ${this.rng.int(1, 28)} 10:${this.rng.int(10, 59)} ${this.rng.pick(NOUNS)}.${this.rng.pick(['ts', 'md', 'json'])}`);
      }
    }
    return out.join('\n');
  }
}

export type CodeLang = 'ts' | 'py' | 'css' | 'sh' | 'json' | 'md';
