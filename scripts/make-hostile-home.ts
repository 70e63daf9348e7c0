/**
 * Writes a GEMINI_HOME made to hurt: markup and scripts in every field, symlinks out of the session, names with
 * `..`, a 50 MB line, invalid UTF-8 and NUL bytes, JSON nested 10 000 levels deep, a step with thousands of tool
 * calls, a transcript still being written, files that cannot be read. Written at test time (not committed: it is
 * large and holds symlinks). Every script in it tries to set `window.__agyPwned`, change `document.title` or open
 * a dialog; every request it tries goes to 203.0.113.1 (TEST-NET-3), never to the archive's host.
 *
 * Usage: node scripts/make-hostile-home.ts <dir>   (prints the GEMINI_HOME to use)
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** The global the hostile scripts try to set. */
export const SENTINEL = '__agyPwned';

/** Payloads that would run, load or navigate if any page inserted data as markup. */
export const PAYLOADS = [
  `<script>window.${SENTINEL}=1;document.title='PWNED'</script>`,
  `</script><script>window.${SENTINEL}=2;alert(2)</script>`,
  `<img src=x onerror="window.${SENTINEL}=3;alert(3)">`,
  `<svg onload="window.${SENTINEL}=4"><script>window.${SENTINEL}=4</script></svg>`,
  `"><script>window.${SENTINEL}=5</script><x a="`,
  `'><img src=x onerror=window.${SENTINEL}=6>`,
  `<iframe src="javascript:parent.${SENTINEL}=7"></iframe><iframe srcdoc="<script>parent.${SENTINEL}=7</script>"></iframe>`,
  `[click me](javascript:window.${SENTINEL}=8) <a href="javascript:window.${SENTINEL}=8">link</a>`,
  `<details open ontoggle="window.${SENTINEL}=9">`,
  `<meta http-equiv="refresh" content="0;url=javascript:window.${SENTINEL}=10">`,
  `<base href="http://203.0.113.1/"><link rel="stylesheet" href="http://203.0.113.1/x.css">`,
  `<img src="http://203.0.113.1/beacon.png"> ![beacon](http://203.0.113.1/md.png)`,
  `<style>body{background:url(http://203.0.113.1/bg)}</style>`,
  `<form action="javascript:window.${SENTINEL}=11"><button autofocus onfocus="window.${SENTINEL}=11">x</button></form>`,
  `<object data="javascript:window.${SENTINEL}=12"></object><embed src="javascript:window.${SENTINEL}=12">`,
  '```html\n</code></pre><script>window.' + SENTINEL + '=13</script>\n```',
  `<!--<script>window.${SENTINEL}=14</script>--> <![CDATA[<script>window.${SENTINEL}=14</script>]]>`,
  `{{constructor.constructor('window.${SENTINEL}=15')()}} \${window.${SENTINEL}=15}`,
];
/** All payloads in one string, for every field that can hold text. */
export const HOSTILE = PAYLOADS.join('\n');
/** A short payload for fields that are usually short (names, status, type). */
export const SHORT = `<script>window.${SENTINEL}=99</script><img src=x onerror=alert(99)>`;

/** Session UUIDs, each named for what it covers. */
export const HOSTILE_SESSIONS = {
  /** Markup in every field, symlinks out (file and folder), names with `..`, SVG uploads. */
  markup: '0badc0de-0000-4000-8000-000000000001',
  /** Files that cannot be read even as root: a folder where a file is expected, a dangling link, FIFOs, mode 000. */
  unreadable: '0badc0de-0000-4000-8000-000000000002',
  /** A 50 MB line, invalid UTF-8, NUL bytes, JSON nested 10 000 levels, a step with 3 000 tool calls. */
  huge: '0badc0de-0000-4000-8000-000000000003',
  /** A transcript still being written: its last line stops halfway. */
  torn: '0badc0de-0000-4000-8000-000000000004',
  /** `.system_generated/logs` is a symlink to a folder outside the session that holds a transcript. */
  linkedLogs: '0badc0de-0000-4000-8000-000000000005',
} as const;

export interface HostileHome {
  /** The GEMINI_HOME to read. */
  home: string;
  /** The global the hostile scripts try to set (`window[sentinel]`). */
  sentinel: string;
  /** A file outside every session that symlinks point to; its marker must never be published. */
  outsideFile: string;
  /** A folder outside every session that symlinks point to. */
  outsideDir: string;
  /** The string inside every outside file. */
  outsideMarker: string;
  /** A fake GitHub token planted in the hostile data: redaction must remove it everywhere. */
  plantedSecret: string;
  sessions: typeof HOSTILE_SESSIONS;
  /** Line numbers (1-based) of the records the tests look for. */
  lines: { tornLast: number; badUtf8: number; rawNul: number; hugeLine: number };
  /** True when a mode-000 file really cannot be read (not root); otherwise only the root-proof cases apply. */
  chmodBlocksReads: boolean;
}

const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

async function write(file: string, data: string | Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, data);
}

function step(index: number, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    step_index: index, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE',
    created_at: `2025-06-01T10:00:${String(index % 60).padStart(2, '0')}Z`, ...fields,
  };
}

/** Writes the hostile GEMINI_HOME under `dir` (created if missing) and says where everything is. */
export async function makeHostileHome(dir: string): Promise<HostileHome> {
  const home = path.join(dir, 'home');
  const brain = path.join(home, 'antigravity', 'brain');
  const outsideDir = path.join(dir, 'outside');
  const outsideMarker = `OUTSIDE-MARKER-${randomBytes(8).toString('hex')}`;
  const outsideFile = path.join(outsideDir, 'secret.txt');
  // Assembled so that no scanner mistakes this source for a leak.
  const plantedSecret = ['ghp_', 'H0st1leT0kenAbCdEfGhIjKlMnOpQrStUv12'].join('');

  // Start clean: symlinks and FIFOs cannot be overwritten in place.
  await fs.rm(home, { recursive: true, force: true });
  await fs.rm(outsideDir, { recursive: true, force: true });
  await write(outsideFile, `${outsideMarker}\n<script>window.${SENTINEL}='outside'</script>\n`);
  await write(path.join(outsideDir, 'folder', 'leak.log'), `${outsideMarker} in a task log\n`);
  await write(path.join(outsideDir, 'folder', 'leak.json'), JSON.stringify({ id: 'x', content: outsideMarker }));
  await write(path.join(outsideDir, 'folder', 'leak.md'), `# ${outsideMarker}\n`);
  await write(path.join(outsideDir, 'transcript.jsonl'), jsonl([step(0, { content: outsideMarker })]));

  // --- markup: every field carries markup ---------------------------------------------------------------------
  const m = path.join(brain, HOSTILE_SESSIONS.markup);
  const logs = path.join(m, '.system_generated', 'logs');
  const markupSteps = [
    step(0, {
      source: 'USER_EXPLICIT', type: 'USER_INPUT',
      content: `<USER_REQUEST>\n${SHORT} build the page ${plantedSecret}\n${HOSTILE}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>The current local time is: <script>alert(0)</script>. @[${SHORT}] </ADDITIONAL_METADATA>`,
    }),
    step(1, {
      content: HOSTILE, thinking: HOSTILE, status: SHORT, type: SHORT, source: SHORT,
      tool_calls: [
        {
          name: SHORT,
          args: {
            CommandLine: `echo "</script><script>window.${SENTINEL}=20</script>" > x.html`,
            Cwd: SHORT, [SHORT]: HOSTILE, nested: { list: [HOSTILE, { deeper: HOSTILE }] },
          },
        },
      ],
    }),
    step(2, {
      type: 'CODE_ACTION',
      tool_calls: [{
        name: 'write_to_file',
        args: {
          TargetFile: `/tmp/${SHORT}/index.html`,
          CodeContent: `<!doctype html><html><body>${HOSTILE}</body></html>`,
          Description: HOSTILE,
        },
      }],
    }),
    step(3, {
      type: 'CODE_ACTION',
      tool_calls: [{
        name: 'replace_file_content',
        args: { TargetFile: '/tmp/a.html', TargetContent: SHORT, ReplacementContent: HOSTILE, Instruction: HOSTILE },
      }],
    }),
    step(4, {
      type: 'RUN_COMMAND', status: 'ERROR', error: HOSTILE, error_code: SHORT, exit_code: SHORT,
      [SHORT]: HOSTILE, tool_calls: [{ name: 'run_command', args: { CommandLine: HOSTILE, Cwd: '/tmp' } }],
    }),
    // step_index as a string: not a usable index, must become a problem (the line is kept on the report).
    { ...step(5, { content: HOSTILE }), step_index: `5${SHORT}` },
    step(6, { type: 'ERROR_MESSAGE', source: 'SYSTEM', content: HOSTILE, error: { message: HOSTILE, [SHORT]: [SHORT] } }),
    step(7, { type: 'VIEW_FILE', tool_calls: [{ name: 'view_file', args: { AbsolutePath: `/etc/${SHORT}` } }], content: HOSTILE }),
    // Tool names that are Object.prototype members, and one that is not a string at all (String() of it throws).
    step(8, {
      tool_calls: [
        { name: 'constructor', args: { toolSummary: SHORT } },
        { name: '__proto__', args: { toolSummary: SHORT } },
        { name: 'toString', args: {} },
        { name: { toString: 1 }, args: {} },
      ],
    }),
  ];
  await write(path.join(logs, 'transcript_full.jsonl'), jsonl(markupSteps));
  await write(path.join(logs, 'transcript.jsonl'), jsonl(markupSteps.slice(0, 3)));
  await write(path.join(m, '.system_generated', 'steps', '1', 'output.txt'), HOSTILE);
  await write(path.join(m, '.system_generated', 'steps', '1', 'content.md'), `# Output\n\n${HOSTILE}`);
  // A step output that is a symlink out of the session (file).
  await fs.mkdir(path.join(m, '.system_generated', 'steps', '2'), { recursive: true });
  await fs.symlink(outsideFile, path.join(m, '.system_generated', 'steps', '2', 'output.txt'));

  const artifactMd = [
    `# Plan ${SHORT}`, '', HOSTILE, '',
    '<iframe src="javascript:alert(1)"></iframe>', '<iframe src="http://203.0.113.1/frame"></iframe>',
    `[javascript link](javascript:window.${SENTINEL}=30)`, `[data link](data:text/html,<script>window.${SENTINEL}=31</script>)`,
    `[vbscript](vbscript:msgbox(1)) <a href="JaVaScRiPt:window.${SENTINEL}=32">mixed case</a>`,
    `![svg](data:image/svg+xml,<svg onload="window.${SENTINEL}=33"/>)`, '', '<div onclick="alert(1)">raw html</div>',
  ].join('\n');
  await write(path.join(m, 'implementation_plan.md'), artifactMd);
  await write(path.join(m, 'implementation_plan.md.resolved'), artifactMd);
  await write(path.join(m, 'implementation_plan.md.resolved.0'), `# v0\n${HOSTILE}`);
  await write(
    path.join(m, 'implementation_plan.md.metadata.json'),
    JSON.stringify({ summary: HOSTILE, updatedAt: SHORT, artifactType: SHORT, [SHORT]: HOSTILE }),
  );
  // An artifact whose file name is markup, and names with `..` in them.
  await write(path.join(m, `${SHORT.replaceAll('/', '∕')}.md`), `# named ${SHORT}`);
  await write(path.join(m, '..hidden..md'), `# dots ${SHORT}`);
  await write(path.join(m, '...md'), '# three dots');
  await write(path.join(m, 'a..b.py.metadata.json'), JSON.stringify({ summary: `dots ${SHORT}` }));
  // A metadata file that does not parse.
  await write(path.join(m, 'broken.md.metadata.json'), `{"summary": "${SHORT}`);
  // Root artifacts that are symlinks out of the session.
  await fs.symlink(outsideFile, path.join(m, 'leak.md'));
  await fs.symlink(outsideFile, path.join(m, 'leak.md.resolved.0'));
  await fs.symlink(path.join(outsideDir, 'folder', 'leak.json'), path.join(m, 'leak.md.metadata.json'));

  const messages = path.join(m, '.system_generated', 'messages');
  await write(
    path.join(messages, '0badc0de-1111-4000-8000-000000000001.json'),
    JSON.stringify({
      id: SHORT, sender: SHORT, recipient: SHORT, title: HOSTILE, content: HOSTILE, timestamp: SHORT, priority: SHORT,
      renderDetails: { html: HOSTILE },
    }),
  );
  await fs.symlink(path.join(outsideDir, 'folder', 'leak.json'), path.join(messages, '0badc0de-1111-4000-8000-00000000dead.json'));
  const tasks = path.join(m, '.system_generated', 'tasks');
  await write(path.join(tasks, `${SHORT.replaceAll('/', '∕')}.log`), HOSTILE);
  await write(path.join(tasks, '..%2F..%2Fescape.log'), `dots ${SHORT}`);
  await fs.symlink(path.join(outsideDir, 'folder', 'leak.log'), path.join(tasks, 'leak.log'));

  await write(path.join(m, 'scratch', `notes${SHORT.replaceAll('/', '∕')}.txt`), HOSTILE);
  await write(path.join(m, 'scratch', 'page.html'), `<!doctype html><title>x</title><body>${HOSTILE}</body>`);
  await write(path.join(m, 'scratch', '..a..', 'inner.txt'), `dots ${SHORT}`);
  // A folder symlink out of the session.
  await fs.symlink(path.join(outsideDir, 'folder'), path.join(m, 'scratch', 'outside-folder'));
  await fs.symlink(outsideDir, path.join(m, 'scratch', 'outside-root'));

  const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="window.${SENTINEL}=40"><script>window.${SENTINEL}=41;alert(41)</script><foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(42)"></iframe></foreignObject></svg>`;
  await write(path.join(m, '.user_uploaded', 'evil.svg'), svg);
  await write(path.join(m, '.user_uploaded', 'evil.html'), `<!doctype html>${HOSTILE}`);
  // A "PNG" that is really markup: a server that sniffs content could run it.
  await write(path.join(m, '.user_uploaded', 'not-really.png'), svg);
  await write(path.join(m, 'uploaded_media_1700000000000.svg'), svg);
  await fs.symlink(outsideFile, path.join(m, '.user_uploaded', 'leak.png'));

  // --- unreadable: reads that fail even as root ------------------------------------------------------------------
  const u = path.join(brain, HOSTILE_SESSIONS.unreadable);
  // A folder where the compact transcript is expected (EISDIR, also as root).
  await fs.mkdir(path.join(u, '.system_generated', 'logs', 'transcript.jsonl'), { recursive: true });
  // A dangling symlink where the full transcript is expected (ENOENT).
  await fs.symlink('does-not-exist.jsonl', path.join(u, '.system_generated', 'logs', 'transcript_full.jsonl'));
  await write(path.join(u, 'task.md'), `# still listed ${SHORT}`);
  // A whole folder that is a symlink out of the session.
  await fs.symlink(path.join(outsideDir, 'folder'), path.join(u, '.system_generated', 'tasks'));
  // FIFOs: opening one for reading blocks until a writer comes, so a reader that opens it hangs.
  const fifoMessage = path.join(u, '.system_generated', 'messages', '0badc0de-2222-4000-8000-000000000001.json');
  await fs.mkdir(path.dirname(fifoMessage), { recursive: true });
  execFileSync('mkfifo', [fifoMessage, path.join(u, 'fifo.md')]);
  await fs.mkdir(path.join(u, 'scratch'), { recursive: true });
  execFileSync('mkfifo', [path.join(u, 'scratch', 'fifo.txt')]);
  // Mode 000: unreadable for a normal user (root reads it anyway, hence the cases above).
  const locked = path.join(u, 'locked.md');
  await write(locked, `# locked ${SHORT}`);
  await fs.chmod(locked, 0o000);
  let chmodBlocksReads = false;
  try {
    await fs.readFile(locked);
  } catch {
    chmodBlocksReads = true;
  }

  // --- huge: sizes and encodings -------------------------------------------------------------------------------
  const h = path.join(brain, HOSTILE_SESSIONS.huge);
  let deep = `"${SHORT}"`;
  for (let i = 0; i < 10_000; i++) deep = i % 2 ? `[${deep}]` : `{"d":${deep}}`;
  const manyCalls = Array.from({ length: 3000 }, (_, i) => ({
    name: i % 7 === 0 ? SHORT : 'run_command',
    args: { CommandLine: `echo ${i} ${i % 100 === 0 ? HOSTILE : SHORT}`, Cwd: '/tmp' },
  }));
  const hugeLines: Buffer[] = [
    Buffer.from(JSON.stringify(step(0, { source: 'USER_EXPLICIT', type: 'USER_INPUT', content: `<USER_REQUEST>\nhuge ${SHORT}\n</USER_REQUEST>` }))),
    Buffer.from(JSON.stringify(step(1, { content: `thousands of calls ${SHORT}`, tool_calls: manyCalls }))),
    // Deeply nested JSON in the arguments and in an unknown field.
    Buffer.from(`{"step_index":2,"source":"MODEL","type":"CODE_ACTION","status":"DONE","created_at":"2025-06-01T10:00:02Z","tool_calls":[{"name":"deep","args":{"value":${deep}}}],"nested_extra":${deep}}`),
    // Invalid UTF-8 inside a string (0xFF 0xFE, a lone continuation byte, a cut 3-byte sequence).
    Buffer.concat([
      Buffer.from(`{"step_index":3,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","content":"bad bytes: `),
      Buffer.from([0xff, 0xfe, 0x80, 0xe2, 0x82]),
      Buffer.from(` ${SHORT}"}`),
    ]),
    // A raw NUL byte inside a JSON string (not valid JSON) …
    Buffer.concat([Buffer.from('{"step_index":4,"content":"raw nul '), Buffer.from([0]), Buffer.from(`${SHORT}"}`)]),
    // … and an escaped one (valid JSON, NUL in the text).
    Buffer.from(JSON.stringify(step(5, { content: `escaped nul \u0000 ${SHORT}`, thinking: '\u0000\u0001\u001b[31m' }))),
    // A 50 MB line, with markup at its very end (after any cut a reader might make).
    Buffer.from(JSON.stringify(step(6, { content: `${'A'.repeat(50 * 1024 * 1024)}${HOSTILE}` }))),
    Buffer.from(JSON.stringify(step(7, { content: `after the huge line ${SHORT}` }))),
  ];
  await write(path.join(h, '.system_generated', 'logs', 'transcript_full.jsonl'), Buffer.concat(hugeLines.flatMap((l) => [l, Buffer.from('\n')])));

  // --- torn: a transcript still being written -------------------------------------------------------------------
  const t = path.join(brain, HOSTILE_SESSIONS.torn);
  const tornComplete = [
    step(0, { source: 'USER_EXPLICIT', type: 'USER_INPUT', content: `<USER_REQUEST>\ntorn ${SHORT}\n</USER_REQUEST>` }),
    step(1, { content: 'complete line', status: 'RUNNING', type: 'RUN_COMMAND' }),
  ];
  const tornLast = JSON.stringify(step(2, { content: `${HOSTILE} and more that never arrived` })).slice(0, 120);
  await write(path.join(t, '.system_generated', 'logs', 'transcript_full.jsonl'), jsonl(tornComplete) + tornLast);

  // --- linkedLogs: the logs folder itself leads out of the session ---------------------------------------------
  const ll = path.join(brain, HOSTILE_SESSIONS.linkedLogs);
  await write(path.join(ll, 'task.md'), `# linked logs ${SHORT}`);
  await fs.mkdir(path.join(ll, '.system_generated'), { recursive: true });
  await fs.symlink(outsideDir, path.join(ll, '.system_generated', 'logs'));

  return {
    home, sentinel: SENTINEL, outsideFile, outsideDir, outsideMarker, plantedSecret, sessions: HOSTILE_SESSIONS,
    lines: { tornLast: 3, badUtf8: 4, rawNul: 5, hugeLine: 7 }, chmodBlocksReads,
  };
}

/** The search filters a session's fields end up in, each planted below with markup of its own. */
export const FILTER_FIELDS = ['workspace', 'model', 'product', 'tool', 'step type', 'status'] as const;

/**
 * Markup for one filter field: a refresh (the navigation issue 10 saw), an image whose error handler runs, a login link, each
 * element marked `data-planted` so a test finds any that became an element. No `/` (so no closing tags: a parser
 * closes them anyway) and no `,`: a product is a folder name, and a comma splits Pagefind filter values.
 */
export function plantedMarkup(field: string): string {
  const mark = `data-planted="${field}"`;
  return (
    `<meta ${mark} http-equiv="refresh" content="1;url=login"><img ${mark} src="x" onerror="window.${SENTINEL}='${field}'">` +
    `<b ${mark}>${field}<a ${mark} href="login">Log in again`
  );
}

/** A home whose one session carries markup in every field the search page filters on. */
export interface HostileFilterHome {
  home: string;
  sessionId: string;
  /** A word only this session holds: search it to get its pages. */
  word: string;
  /** The raw value planted in each filter field. */
  values: Record<(typeof FILTER_FIELDS)[number], string>;
}

/**
 * Writes, under `dir`, a GEMINI_HOME with one small session whose workspace (`Cwd`), model (`Model Selection`),
 * product (the folder name), tool name, step type and status each hold markup (`plantedMarkup`). Small, so a
 * browser test can build it in seconds.
 */
export async function makeHostileFilterHome(dir: string): Promise<HostileFilterHome> {
  const home = path.join(dir, 'filter-home');
  const sessionId = '0badc0de-0000-4000-8000-0000000000f1';
  const word = 'quokkaplanted';
  const values = {
    workspace: `/w${plantedMarkup('workspace')}`,
    model: `Gemini ${plantedMarkup('model')}`,
    product: `ag${plantedMarkup('product')}`,
    tool: `run${plantedMarkup('tool')}`,
    'step type': `RUN${plantedMarkup('step type')}`,
    status: `DONE${plantedMarkup('status')}`,
  };
  await fs.rm(home, { recursive: true, force: true });
  const logs = path.join(home, values.product, 'brain', sessionId, '.system_generated', 'logs');
  const steps = [
    step(0, {
      source: 'USER_EXPLICIT', type: 'USER_INPUT',
      content:
        // The first request is the session's title: in every result title and in the session filter.
        `<USER_REQUEST>\nCount the ${word} files ${plantedMarkup('title')}\n</USER_REQUEST>\n<USER_SETTINGS_CHANGE>\nThe user changed setting ` +
        `\`Model Selection\` from None to ${values.model}. No need to comment on this change.\n</USER_SETTINGS_CHANGE>`,
    }),
    step(1, {
      type: values['step type'], status: values.status, content: `Counting the ${word} files now.`,
      tool_calls: [{ name: values.tool, args: { CommandLine: `ls ${word} | wc -l`, Cwd: values.workspace } }],
    }),
    step(2, { content: `There are 3 ${word} files.` }),
  ];
  await write(path.join(logs, 'transcript_full.jsonl'), jsonl(steps));
  await write(path.join(logs, 'transcript.jsonl'), jsonl(steps));
  return { home, sessionId, word, values };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('Usage: node scripts/make-hostile-home.ts <dir>\nWrites a hostile GEMINI_HOME under <dir>/home.');
    process.exit(2);
  }
  const made = await makeHostileHome(path.resolve(dir));
  console.log(made.home);
}
