import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session, Step } from '../../src/lib/brain/types.ts';
import { REDACTOR_VERSION, redactSession, redactText, redactionEnabledFromEnv } from '../../src/lib/redact/index.ts';
import { PREFILTER } from '../../src/lib/redact/patterns.ts';

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
