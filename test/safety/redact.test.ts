import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session, Step } from '../../src/lib/brain/types.ts';
import { REDACTOR_VERSION, redactSession, redactText, redactionEnabledFromEnv } from '../../src/lib/redact/index.ts';
import { PREFILTER } from '../../src/lib/redact/patterns.ts';
import { MAX_JSON_DEPTH, rangeInRoot, readingsOf } from '../../src/lib/redact/readings.ts';
import { applyHits } from '../../src/lib/redact/scan.ts';
import { fileText, redactedFileBytes, scanSessionTexts } from '../../src/lib/redact/stored.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const realHome = path.resolve(projectRoot, '../shared/real-brains/gemini');

// Fake secrets, assembled at run time so that no scanner mistakes this file for a leak.
const j = (...parts: string[]) => parts.join('');
const SECRETS = {
  'aws-access-key': j('AKIA', 'Z3MSJV4WWNKWW5FG'),
  'aws-secret-key': j('wJalrXUtnFEMI/K7MDENG', '/bPxRfiCYEXAMPLEKEZ'),
  'github-token': j('ghp_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'),
  'github-oauth': j('gho_', '16C7e42F292c6912E7710c838347Ae178B4a'),
  'github-pat': j('github_pat_', '11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghi'),
  'google-api-key': j('AIza', 'SyB3xk9M2vL5pQ7rT1uW4yZ6aC8eG0iK2mN'),
  'slack-token': j('xoxb-', '1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'),
  'stripe-key': j('sk_', 'live_51H8xYzAbCdEfGhIjKlMnOpQrStUvWxYz0123456789'),
  'openai-key': j('sk-', 'proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f'),
  'openai-legacy': j('sk-', '1234567890abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL'),
  'telegram-bot-token': j('3885083960', ':AAXmWi9S8D-G3k5RilRqnB6fZwjc8ZImZD8'),
  jwt: j('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.eyJzdWIiOiIxMjM0NTY3ODkwIn0', '.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'),
  'private-key-body': 'MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF0qSi9gY3jMXYZqQ7pW2x',
  'url-password': 'hunter2xyz',
  'bearer-token': j('abcdef0123456789', 'ZYXWVUTSRQ'),
};
const PEM = j('-----BEGIN RSA ', 'PRIVATE KEY-----\n', SECRETS['private-key-body'], '\nabc\n-----END RSA PRIVATE KEY-----');

/** Realistic text around each secret, and the kind it must be reported as. */
const IN_CONTEXT: [kind: string, text: string, secret: string][] = [
  ['aws-access-key', `$ env\nHOME=/root\nAWS_ACCESS_KEY_ID=${SECRETS['aws-access-key']}\nPATH=/usr/bin`, SECRETS['aws-access-key']],
  ['aws-secret-key', `AWS_SECRET_ACCESS_KEY=${SECRETS['aws-secret-key']}\nAWS_REGION=eu-west-1`, SECRETS['aws-secret-key']],
  ['github-token', `git remote set-url origin https://x:${SECRETS['github-token']}@github.com/o/r`, SECRETS['github-token']],
  ['github-token', `{"CommandLine":"gh auth login --with-token <<< ${SECRETS['github-oauth']}"}`, SECRETS['github-oauth']],
  ['github-token', `GITHUB_TOKEN="${SECRETS['github-pat']}"`, SECRETS['github-pat']],
  ['google-api-key', `const url = "https://maps.googleapis.com/api?key=${SECRETS['google-api-key']}&q=x";`, SECRETS['google-api-key']],
  ['slack-token', `SLACK_BOT_TOKEN=${SECRETS['slack-token']} node bot.js`, SECRETS['slack-token']],
  ['stripe-key', `stripe.api_key = '${SECRETS['stripe-key']}'`, SECRETS['stripe-key']],
  ['openai-key', `OPENAI_API_KEY=${SECRETS['openai-key']}`, SECRETS['openai-key']],
  ['openai-key', `client = OpenAI(api_key="${SECRETS['openai-legacy']}")`, SECRETS['openai-legacy']],
  ['telegram-bot-token', `curl https://api.telegram.org/bot${SECRETS['telegram-bot-token']}/sendMessage`, SECRETS['telegram-bot-token']],
  ['jwt', `Cookie: session=${SECRETS.jwt}; Path=/`, SECRETS.jwt],
  ['private-key', `cat ~/.ssh/id_rsa\n${PEM}\n$ `, SECRETS['private-key-body']],
  ['private-key', `"key": "${PEM.replaceAll('\n', '\\n')}"`, SECRETS['private-key-body']],
  ['private-key', j('-----BEGIN OPENSSH ', 'PRIVATE KEY-----\n', SECRETS['private-key-body'], '\n<truncated 2100 bytes>'), SECRETS['private-key-body']],
  ['url-password', `DATABASE_URL=postgres://admin:${SECRETS['url-password']}@db.internal:5432/app`, SECRETS['url-password']],
  ['url-password', `fetch("https://bob:${SECRETS['url-password']}@example.com/api")`, SECRETS['url-password']],
  ['url-password', `amqp://guest:${SECRETS['url-password']}@rabbit/`, SECRETS['url-password']],
  ['bearer-token', `curl -H "Authorization: Bearer ${SECRETS['bearer-token']}" https://api.example.com`, SECRETS['bearer-token']],
];

function step(key: string, fields: Partial<Step>): Step {
  return {
    key, index: Number.parseInt(key, 10), occurrence: 0, position: 0, source: 'MODEL', type: 'PLANNER_RESPONSE',
    status: 'DONE', toolCalls: [], extra: {}, truncatedFields: [], origin: 'full', sources: [], ...fields,
  };
}

/** A session with one secret in every kind of field that reaches a page. */
function sessionFull(secret: string): Session {
  const raw = JSON.stringify({ step_index: 1, content: `token ${secret}` });
  return {
    id: '11111111-2222-3333-4444-555555555555', product: 'antigravity', dir: '/tmp/x', missingSteps: [],
    meta: {
      title: `deploy with ${secret}`, request: `use ${secret}`, requests: [`use ${secret}`], mentionedFiles: [`@[${secret}]`],
      workspace: `/home/u/${secret}`, model: 'Gemini', createdAt: '2025-01-01T00:00:00Z', stepCount: 2, toolCallCount: 1,
      toolCounts: {}, typeCounts: {}, errorCount: 0,
    },
    steps: [
      step('1', {
        content: `token ${secret}`, thinking: `I see ${secret}`, error: { message: `bad ${secret}`, nested: [[`${secret}`]] },
        extra: { error_code: `E ${secret}` }, sources: [{ transcript: 'full', file: 'logs/t.jsonl', line: 1, raw }],
        toolCalls: [{ name: 'run_command', args: { CommandLine: `echo ${secret}`, Env: { deep: [{ v: secret }] } }, truncatedArgs: [] }],
        output: { file: 'steps/1/output.txt', text: `out ${secret}`, duplicateOfContent: false },
        contentMd: { file: 'steps/1/content.md', text: `# ${secret}` },
      }),
      step('2-1', { content: `again: ${secret}`, error: `E: ${secret}` }),
    ],
    artifacts: [{
      name: 'plan.md', file: 'plan.md', text: `plan ${secret}`,
      metadata: { summary: `sum ${secret}`, raw: { summary: `sum ${secret}`, other: { x: secret } } },
      versions: [{ file: 'plan.md.resolved.0', version: 0, text: `v0 ${secret}` }],
    }],
    messages: [{ file: 'messages/m.json', title: `t ${secret}`, content: `c ${secret}`, hidden: false, raw: { content: `c ${secret}` } }],
    taskLogs: [{ file: 'tasks/a.log', name: 'a', text: `log ${secret}` }],
    uploads: [],
    scratch: [{ file: 'scratch/n.txt', size: 1, text: `note ${secret}` }],
    transcriptFiles: ['logs/t.jsonl'],
    problems: [{ kind: 'bad-line', file: 'logs/t.jsonl', line: 3, message: `cannot parse: ${secret}` }],
  };
}

describe('redactText', () => {
  it.each(IN_CONTEXT)('catches %s in realistic text', async (kind, text, secret) => {
    const result = await redactText(text);
    expect(result.text).not.toContain(secret);
    expect(result.kinds).toContain(kind);
    expect(result.text).toContain(`[REDACTED:${kind}]`);
    expect(PREFILTER.test(text)).toBe(true);
  });

  it('keeps the text around a secret, and the host of a URL', async () => {
    const { text } = await redactText(`postgres://postgres:password@localhost:5432/db and Bearer ${SECRETS['bearer-token']}, done`);
    expect(text).toBe('postgres://postgres:[REDACTED:url-password]@localhost:5432/db and Bearer [REDACTED:bearer-token], done');
  });

  it('leaves ordinary text alone', async () => {
    const plain = 'Ran `npm test` in /home/u/task-runner: 12 passed. See https://example.com/a?b=c, ask the account owner.';
    expect(await redactText(plain)).toEqual({ text: plain, kinds: [] });
  });

  it('is idempotent', async () => {
    for (const [, text] of IN_CONTEXT) {
      const once = (await redactText(text)).text;
      expect((await redactText(once)).text).toBe(once);
    }
  });

  it('cannot be switched off by a secretlint-disable comment in the data', async () => {
    const { text } = await redactText(`// secretlint-disable\nGITHUB_TOKEN=${SECRETS['github-token']}`);
    expect(text).not.toContain(SECRETS['github-token']);
  });
});

describe('redactSession', () => {
  it('leaves no secret in any field that reaches a page, and reports each place by kind', async () => {
    const secret = SECRETS['github-token'];
    const original = sessionFull(secret);
    const { session, redactions } = await redactSession(original);
    expect(JSON.stringify(session)).not.toContain(secret);
    expect(JSON.stringify(redactions)).not.toContain(secret);
    expect(JSON.stringify(original)).toContain(secret); // the input is not modified
    expect(session.steps[0]!.toolCalls[0]!.args).toEqual({
      CommandLine: 'echo [REDACTED:github-token]', Env: { deep: [{ v: '[REDACTED:github-token]' }] },
    });
    expect(redactions).toContainEqual({ sessionId: original.id, stepKey: '1', where: 'sources[0].raw', file: 'logs/t.jsonl', kind: 'github-token', count: 1 });
    expect(redactions).toContainEqual({ sessionId: original.id, stepKey: '2-1', where: 'content', kind: 'github-token', count: 1 });
    expect(redactions).toContainEqual({ sessionId: original.id, where: 'artifacts[0].versions[0].text', file: 'plan.md.resolved.0', kind: 'github-token', count: 1 });
    expect(redactions.every((r) => r.kind === 'github-token')).toBe(true);
    // The raw line stays valid JSON after redaction.
    expect(JSON.parse(session.steps[0]!.sources[0]!.raw)).toEqual({ step_index: 1, content: 'token [REDACTED:github-token]' });
  });

  it.each(IN_CONTEXT)('removes %s from every field', async (_kind, text, secret) => {
    const { session } = await redactSession(sessionFull(text));
    expect(JSON.stringify(session)).not.toContain(secret);
  });

  it('passes through untouched when disabled', async () => {
    const original = sessionFull(SECRETS.jwt);
    const result = await redactSession(original, { enabled: false });
    expect(result.session).toBe(original);
    expect(result.redactions).toEqual([]);
  });

  it('is idempotent', async () => {
    const once = await redactSession(sessionFull(SECRETS['slack-token']));
    const twice = await redactSession(once.session);
    expect(twice.session).toEqual(once.session);
    expect(twice.redactions).toEqual([]);
  });

  it('copies deeply nested values without overflowing the stack, and keeps __proto__ keys as data', async () => {
    let deep: unknown = `leaf ${SECRETS['aws-access-key']}`;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const original = sessionFull('nothing');
    original.steps[0]!.extra = JSON.parse(`{"__proto__": {"polluted": "${SECRETS.jwt}"}}`);
    original.steps[0]!.error = deep;
    const { session } = await redactSession(original);
    expect(JSON.stringify(session.steps[0]!.extra)).toBe('{"__proto__":{"polluted":"[REDACTED:jwt]"}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    let leaf: unknown = session.steps[0]!.error;
    while (Array.isArray(leaf)) leaf = leaf[0];
    expect(leaf).toBe('leaf [REDACTED:aws-access-key]');
  });
});

describe('secrets in encoded forms (issue 10)', () => {
  const token = SECRETS['github-token'];

  it('removes a token pasted alone on a line of a request from the raw line, compact and full', async () => {
    const original = sessionFull('nothing');
    const content = `<USER_REQUEST>\nuse my token:\n${token}\n…`;
    original.steps[0]!.content = content;
    original.steps[0]!.sources = [
      { transcript: 'compact', file: 'logs/transcript.jsonl', line: 1, raw: JSON.stringify({ step_index: 1, content }) },
      { transcript: 'full', file: 'logs/transcript_full.jsonl', line: 1, raw: JSON.stringify({ step_index: 1, content }) },
    ];
    const { session, redactions } = await redactSession(original);
    expect(JSON.stringify(session)).not.toContain(token);
    for (const source of session.steps[0]!.sources) {
      expect(JSON.parse(source.raw).content).toBe('<USER_REQUEST>\nuse my token:\n[REDACTED:github-token]\n…');
    }
    expect(redactions).toContainEqual({
      sessionId: original.id, stepKey: '1', where: 'sources[1].raw', file: 'logs/transcript_full.jsonl', kind: 'github-token', count: 1,
    });
  });

  it.each([
    ['\\n before it', `{"content":"a\\n${token}"}`],
    ['\\t before it', `{"content":"a\\t${token}"}`],
    ['its first letter as \\u0067', `{"content":"\\u0067${token.slice(1)}"}`],
    ['in a compact argument (escaped twice)', JSON.stringify({ args: { CommandLine: JSON.stringify(`echo\n${token}`) } })],
  ])('removes a token from a raw line with %s, replacing the escapes it touches whole', async (_name, raw) => {
    const original = sessionFull('nothing');
    original.steps[0]!.sources = [{ transcript: 'full', file: 'logs/t.jsonl', line: 1, raw }];
    const { session } = await redactSession(original);
    const redacted = session.steps[0]!.sources[0]!.raw;
    expect(redacted).not.toContain(token.slice(4));
    expect(redacted).toContain('[REDACTED:github-token]');
    expect(() => JSON.parse(redacted)).not.toThrow();
  });

  it('redacts a password in a URL written with \\/\\/ and in a percent-encoded one, keeping the rest', async () => {
    const password = SECRETS['url-password'];
    const [escaped, encoded] = await Promise.all([
      redactText(`{"url":"postgres:\\/\\/admin:${password}@db:5432\\/app"}`),
      redactText(`open https://x.example/login?next=postgres%3A%2F%2Fadmin%3A${password}%40db%3A5432%2Fapp now`),
    ]);
    expect(escaped.text).toBe('{"url":"postgres:\\/\\/admin:[REDACTED:url-password]@db:5432\\/app"}');
    expect(encoded.text).toBe('open https://x.example/login?next=postgres%3A%2F%2Fadmin%3A[REDACTED:url-password]%40db%3A5432%2Fapp now');
  });

  it('redacts a percent-encoded token in a URL', async () => {
    const { text, kinds } = await redactText(`https://x.example/?token=ghp%5F${token.slice(4)}&x=1`);
    expect(text).toBe('https://x.example/?token=[REDACTED:github-token]&x=1');
    expect(kinds).toEqual(['github-token']);
  });

  it('removes a secret found in one field from every other place of the session, whatever its context there', async () => {
    // Found by its name in a command; written bare in the raw line of a record that was later rewritten.
    const key = SECRETS['aws-secret-key'];
    const original = sessionFull('nothing');
    original.steps[0]!.toolCalls = [{ name: 'run_command', args: { CommandLine: `export AWS_SECRET_ACCESS_KEY=${key}` }, truncatedArgs: [] }];
    original.steps[0]!.sources = [{ transcript: 'full', file: 'logs/t.jsonl', line: 1, raw: JSON.stringify({ status: 'RUNNING', content: `the key is\n${key}` }) }];
    const { session } = await redactSession(original);
    expect(JSON.stringify(session)).not.toContain(key);
  });

  it('maps a hit in a decoded reading onto whole escapes of the text', () => {
    const text = 'ab\\u0067hp\\\\n\\/x';
    const readings = readingsOf(text, true);
    expect(readings.map((r) => r.text)).toEqual(['ab' + 'ghp\\n/x', 'ab' + 'ghp\n/x']);
    const [first, second] = readings;
    expect(rangeInRoot(first!, 2, 3)).toEqual([2, 8]); // `g` is `\u0067`
    expect(rangeInRoot(second!, 5, 6)).toEqual([10, 13]); // the newline is `\\n`, 3 characters
    expect(rangeInRoot(second!, 2, 8)).toEqual([2, 16]); // `ghp` … `x`: every escape whole
  });

  it('stops decoding at a bounded depth, so escapes of escapes cannot make it work forever', () => {
    const hostile = `x${'\\u005cu005c'.repeat(20_000)}`;
    const readings = readingsOf(hostile, true);
    expect(readings.length).toBeLessThanOrEqual(MAX_JSON_DEPTH + 1);
  });
});

describe('the shapes issue 19 found slipping through', () => {
  const token = SECRETS['github-token'];

  it.each([
    ['an AWS secret key ending in / or +', `AWS_SECRET_ACCESS_KEY=${j('wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKE', 'E/+')}\n`, 'wJalrXUtnFEMIK7MDENG'],
    ['a SendGrid key holding -', `SENDGRID_API_KEY=${j('SG.', 'abcdefghij-klmnopqrstu', '.', 'abcdefghijklmno-pqrstuvwxyzABCDEFGHIJKLMNOP')}`, 'pqrstuvwxyzABCDEF'],
    ['a URL password with an empty user', 'redis://:s3cretPassw0rd@cache:6379', 's3cretPassw0rd'],
    ['a URL token with an empty user', 'git clone https://:tok3nValue99x@git.example.com/r.git', 'tok3nValue99x'],
    ['a URL password holding / # \' \\', "postgres://app:pa/ss#wo'rd\\x9@db/app", 'ss#wo'],
    ['a token glued to a word', `export TOKEN${token}`, token.slice(4)],
    ['a token glued to a digit', `id9${token}`, token.slice(4)],
  ])('redacts %s', async (_name, text, needle) => {
    const { text: out } = await redactText(text);
    expect(out).not.toContain(needle);
    expect(out).toContain('[REDACTED:');
  });

  it.each([
    ['a port and a path before an @', 'http://localhost:3000/users/@me'],
    ['an image digest', 'docker://ubuntu:22.04@sha256:0123456789abcdef'],
    ['a word ending in sk- before a long name', 'see the disk-usage-monitoring-service for details'],
  ])('leaves %s alone', async (_name, text) => {
    expect((await redactText(text)).text).toBe(text);
  });

  it('redacts a secret held in a tool name', async () => {
    const original = sessionFull('nothing');
    original.steps[0]!.toolCalls = [{ name: `run_${token}`, args: {}, truncatedArgs: [] }];
    const { session } = await redactSession(original);
    expect(session.steps[0]!.toolCalls[0]!.name).toBe('run_[REDACTED:github-token]');
  });

  it('redacts the start of a secret the compact transcript cut, when the full transcript holds it whole', async () => {
    const original = sessionFull('nothing');
    const cut = JSON.stringify({ args: { CommandLine: JSON.stringify(`echo ${token} more`).slice(0, 30) + '\n<truncated 900 bytes>' } });
    expect(cut).toContain(token.slice(0, 20));
    original.steps[0]!.toolCalls = [{ name: 'run_command', args: { CommandLine: `echo ${token} more` }, truncatedArgs: [] }];
    original.steps[0]!.sources = [{ transcript: 'compact', file: 'logs/transcript.jsonl', line: 1, raw: cut }];
    original.steps[1]!.content = `${token.slice(0, 22)}\n<truncated 31 bytes>`;
    const { session } = await redactSession(original);
    expect(session.steps[0]!.sources[0]!.raw).not.toContain(token.slice(0, 8));
    expect(() => JSON.parse(session.steps[0]!.sources[0]!.raw)).not.toThrow();
    expect(session.steps[1]!.content).toBe('[REDACTED:github-token]\n<truncated 31 bytes>');
  });

  it('redacts the start of a secret at the end of a text the reader cut at its size limit, and only there', async () => {
    const original = sessionFull('nothing');
    original.steps[0]!.output = { file: 'steps/1/output.txt', text: `${'x'.repeat(5000)}\nTOKEN=${token.slice(0, 18)}`, duplicateOfContent: false };
    original.steps[1]!.output = { file: 'steps/2/output.txt', text: `done ${token.slice(0, 18)}`, duplicateOfContent: false };
    original.problems.push({ kind: 'too-large', file: 'steps/1/output.txt', message: 'steps/1/output.txt is 5000000 bytes' });
    const { session } = await redactSession(original);
    expect(session.steps[0]!.output!.text.endsWith('TOKEN=[REDACTED:github-token]')).toBe(true);
    expect(session.steps[1]!.output!.text).toBe(`done ${token.slice(0, 18)}`);
  });
});

describe('redactionEnabledFromEnv', () => {
  it('is on unless ARCHIVE_REDACT says off', () => {
    expect(redactionEnabledFromEnv({})).toBe(true);
    expect(redactionEnabledFromEnv({ ARCHIVE_REDACT: 'on' })).toBe(true);
    for (const off of ['off', 'OFF', ' Off ', '0', 'false', 'FALSE']) {
      expect(redactionEnabledFromEnv({ ARCHIVE_REDACT: off })).toBe(false);
    }
    expect(REDACTOR_VERSION).toMatch(/^\d+\+secretlint-preset-\d+\./);
  });
});

describe.skipIf(!existsSync(realHome))('real sessions', () => {
  it('removes the planted Telegram token from session 86033144 everywhere', async () => {
    const discovery = await discoverSessions({ geminiHome: realHome });
    const ref = discovery.sessions.find((s) => s.id.startsWith('86033144'));
    expect(ref).toBeDefined();
    const original = await readSession(ref!);
    expect(JSON.stringify(original)).toContain(SECRETS['telegram-bot-token']);
    const { session, redactions } = await redactSession(original);
    const json = JSON.stringify(session);
    expect(json).not.toContain(SECRETS['telegram-bot-token']);
    expect(json).not.toContain('AAXmWi9S8D-G3k5RilRqnB6fZwjc8ZImZD8');
    expect(redactions.filter((r) => r.kind === 'telegram-bot-token').length).toBeGreaterThan(0);
    expect(session.steps.length).toBe(original.steps.length);
  });
});

describe('files of the export: binary by content, not by one byte', () => {
  it('reads a text file with a NUL and a byte that is not UTF-8 as text, and writes its other bytes back unchanged', async () => {
    const token = SECRETS['github-token'];
    const bytes = Buffer.concat([Buffer.from('log\0 é '), Buffer.from([0xff]), Buffer.from(` ${token}\n`)]);
    const file = fileText(bytes);
    expect(file?.encoding).toBe('latin1');
    const [hits = []] = await scanSessionTexts([{ text: file!.text }]);
    const out = redactedFileBytes(file!, hits);
    expect(out.includes(token)).toBe(false);
    expect(out.equals(Buffer.concat([Buffer.from('log\0 é '), Buffer.from([0xff]), Buffer.from(' [REDACTED:github-token]\n')]))).toBe(true);
  });

  it('leaves images, archives and mostly-control files alone', () => {
    expect(fileText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x41]))).toBeUndefined();
    expect(fileText(Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.from('ghp_x')]))).toBeUndefined();
    expect(fileText(Buffer.alloc(100, 1))).toBeUndefined();
    expect(fileText(Buffer.from('plain text\n'))?.encoding).toBe('utf8');
  });

  it('removes from every text of a session a secret identified in only one of them', async () => {
    const key = SECRETS['aws-secret-key'];
    const [named = [], bare = []] = await scanSessionTexts([
      { text: JSON.stringify({ content: `export AWS_SECRET_ACCESS_KEY=${key}` }), json: true },
      { text: `the key was ${key}\n` },
    ]);
    expect(named.length).toBe(1);
    expect(applyHits(`the key was ${key}\n`, bare)).toBe('the key was [REDACTED:aws-secret-key]\n');
  });
});

describe('passwords in prose and scripts (issue 21, point 5)', () => {
  // Values assembled at run time, as the other fake secrets.
  const pw = j('Sunny', '2024!x');
  it.each([
    ['after "password is"', `The admin password is ${pw}, the FTP one is below.`],
    ['after "FTP password:"', `FTP password: ${pw}`],
    ['after Korean 비밀번호는', `관리자 비밀번호는 ${pw}입니다`],
    ['after Japanese パスワード', `パスワード：${pw}`],
    ['after Chinese 密码是', `密码是${pw}`],
    ['after Spanish contraseña', `la contraseña: ${pw}`],
    ['after Portuguese senha', `a senha é ${pw}`],
    ['after French mot de passe', `le mot de passe : ${pw}`],
    ['after German Passwort', `Das Passwort ist ${pw}`],
    ['after Russian пароль', `пароль: ${pw}`],
    ['a PowerShell $pass', `$user = 'admin'\n$pass = '${pw}'`],
    ['a -Password parameter', `Connect-Ftp -Server ftp.example.com -Password ${pw}`],
    ['a PASSWORD= line', `export DB_PASSWORD=${pw}`],
    ['a JSON password key', `{"user":"a","password":"${pw}"}`],
    ['a NetworkCredential', `$c = New-Object System.Net.NetworkCredential("ftpuser", "${pw}")`],
    ['a ConvertTo-SecureString', `$s = ConvertTo-SecureString "${pw}" -AsPlainText -Force`],
  ])('redacts a password %s', async (_name, text) => {
    const { text: out, kinds } = await redactText(text);
    expect(out).not.toContain(pw.slice(0, 8));
    expect(kinds.some((k) => k.startsWith('password-'))).toBe(true);
  });

  it.each([
    'password is required', 'Forgot your password? Reset it here.', 'tests pass: 12, fail: 0', 'must pass: `Idempotency-Key`',
    'password: ${DB_PASSWORD}', 'password = os.environ["DB_PASSWORD"]', 'password=DERIV_CONFIG["password"]',
    "client({'login': 1, 'password': '1'})", 'pwd = "/home/u/app"', 'cd $(pwd)', 'PWD=/home/u', 'password_hash = "x1y2z3abc"',
    'pin the version to 1.2.3', 'the PIN field is empty', '비밀번호를 입력하세요', 'パスワードを忘れた場合', 'bypass=abc123',
    'passwordField: "input1"', '-Password $securePass', 'password: ********',
  ])('leaves "%s" alone', async (text) => {
    expect((await redactText(text)).text).toBe(text);
  });

  it('removes a password identified once from every other place of the session it is written bare', async () => {
    const original = sessionFull('nothing');
    original.steps[0]!.content = `FTP password: ${pw}`;
    original.steps[1]!.content = `logged in with ${pw} ok`;
    const { session, redactions } = await redactSession(original);
    expect(JSON.stringify(session)).not.toContain(pw);
    expect(redactions.filter((r) => r.kind === 'password-in-prose').map((r) => r.stepKey).sort()).toEqual(['1', '2-1']);
  });
});
