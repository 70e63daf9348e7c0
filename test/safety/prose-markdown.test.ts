/**
 * Passwords in prose as people and models write them (issue 27, point 4 and finding 5): in Markdown (bold, code
 * spans, list labels, table cells, fenced blocks, inline HTML), in the languages of the real data (English, Korean,
 * Chinese, Spanish, Vietnamese) and Japanese, with the joiners the probe found missed ("set the password to X",
 * `pw: X`, `passwd X`, `비밀번호로 X를`, `パスワードをXに設定`, `密码改为X`); and auth code that names a password
 * without holding one (`password = hashlib.sha256(pw…)`, `password: z.string()`, `this.password = newPassword`),
 * which must stay as written, and whose names must not then be blanked elsewhere in the session
 * (`grep -rn hashlib.sha256 src/`). Examples first (each failed before), then properties over generated values.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readSession } from '../../src/lib/brain/index.ts';
import { redactSession, redactText } from '../../src/lib/redact/index.ts';
import { applyHits, scanTexts } from '../../src/lib/redact/scan.ts';
import { propertyRuns } from '../helpers/properties.ts';
import { seededRandom, writePlantedSession } from './planted-home.ts';

// A fake password, assembled at run time so that no scanner mistakes this file for a leak.
const PW = ['Sunny', '2024!x'].join('');

/** Markdown forms, in the languages of the real data: each must lose the value. */
const MARKDOWN_FORMS: [name: string, form: (v: string) => string][] = [
  ['bold value after "is"', (v) => `The database password is **${v}**.`],
  ['list label in bold, value in a code span', (v) => `- **Password**: \`${v}\``],
  ['bold label with its colon inside', (v) => `**Password:** ${v}`],
  ['a key/value table row', (v) => `| Password | ${v} |`],
  ['a key/value table with its header', (v) => `| Field | Value |\n|---|---|\n| User | admin |\n| Password | ${v} |`],
  ['a table column headed Password', (v) => `| Host | User | Password |\n| --- | :---: | --- |\n| db1 | admin | \`${v}\` |`],
  ['underscores and italics', (v) => `* __Root password__ = _${v}_`],
  ['inline HTML', (v) => `<p>Password: <code>${v}</code></p>`],
  ['a fenced block after the label', (v) => `Password:\n\n\`\`\`text\n${v}\n\`\`\``],
  ['Korean, bold', (v) => `관리자 **비밀번호**는 **${v}**입니다.`],
  ['Korean, a table', (v) => `| 항목 | 값 |\n|---|---|\n| 비밀번호 | \`${v}\` |`],
  ['Chinese, bold', (v) => `数据库**密码**：**${v}**`],
  ['Chinese, a list label', (v) => `- **密码**: \`${v}\``],
  ['Japanese, bold', (v) => `**パスワード**は\`${v}\`です`],
  ['Spanish, bold', (v) => `La **contraseña** es **${v}**`],
  ['Vietnamese, a list label', (v) => `- **Mật khẩu**: \`${v}\``],
  ['Vietnamese, "là"', (v) => `Mật khẩu là ${v}`],
];

/** The joiners the probe found missed: each must lose the value. */
const MISSED_FORMS: [name: string, form: (v: string) => string][] = [
  ['pw:', (v) => `user: admin, pw: ${v}`],
  ['passwd and a space', (v) => `ftp login admin passwd ${v}`],
  ['set the password to', (v) => `I set the password to ${v} for now.`],
  ['password was changed to', (v) => `The root password was changed to ${v}`],
  ['Korean 비밀번호로 X를', (v) => `비밀번호로 ${v}를 설정했습니다`],
  ['Korean 비밀번호를 X로', (v) => `비밀번호를 ${v}로 변경했습니다`],
  ['Japanese パスワードをXに設定', (v) => `パスワードを${v}に設定しました`],
  ['Japanese パスワードをXに変更', (v) => `パスワードを「${v}」に変更しました`],
  ['Chinese 密码设置为X', (v) => `密码设置为${v}`],
  ['Chinese 密码已更改为X', (v) => `管理员密码已更改为${v}。`],
  ['Chinese 把密码改成X', (v) => `把密码改成${v}了`],
];

/** Auth code and docs that name a password without holding one: each must stay exactly as written. */
const CODE_FORMS = [
  'password = hashlib.sha256(pw.encode()).hexdigest()',
  'const user = await db.insert(users).values({ email, password: hashedPassword });',
  'password: z.string().min(8),',
  'this.password = newPassword;',
  'user->password = newPassword;',
  'password: sha256',
  'The password is UTF-8 encoded before hashing.',
  'password field added in v2.1.0',
  'password: v2.1.0',
  'password = bcrypt.hashSync(pw, 10)',
  'password: String,',
  'password: Mapped[str] = mapped_column(String(255))',
  'password: DataTypes.STRING,',
  'password = hash2(pw)',
  'self.password = password_hash',
  '"password": "string"',
  'password: SecretStr',
  'function pbkdf2(password: BinaryLike, salt: BinaryLike): void;',
  'encode(password: Uint8Array): string',
  'password: URLPatternComponentResult;',
  'pw: string',
  'passwd root',
  'sudo passwd -l deploy',
  'tests pass to step2',
  'pin to v1.2.3',
  '**Password**: required',
  '| password | string | yes |',
  '| Field | Type |\n|---|---|\n| password | varchar(255) |',
  '비밀번호를 입력하세요',
  'パスワードを忘れた場合',
  '密码不能为空',
  'password: ********',
];

describe('a password written in Markdown (issue 27 point 4)', () => {
  it.each(MARKDOWN_FORMS)('is redacted: %s', async (_name, form) => {
    const { text, kinds } = await redactText(form(PW));
    expect(text).not.toContain(PW);
    expect(text).toContain('[REDACTED:password-in-prose]');
    expect(kinds).toContain('password-in-prose');
  });

  it('keeps the marks around the value as written', async () => {
    expect((await redactText(`- **Password**: \`${PW}\``)).text).toBe('- **Password**: `[REDACTED:password-in-prose]`');
    expect((await redactText(`| User | Password |\n|---|---|\n| admin | ${PW} |`)).text).toBe(
      '| User | Password |\n|---|---|\n| admin | [REDACTED:password-in-prose] |',
    );
  });

  it('is found in a JSON-encoded reply too (a transcript line as read)', async () => {
    const raw = JSON.stringify({ content: `Done.\n\n| Setting | Value |\n|---|---|\n| **Password** | \`${PW}\` |` });
    const [hits = []] = await scanTexts([raw], { json: [true] });
    const out = applyHits(raw, hits);
    expect(out).not.toContain(PW);
    expect(JSON.parse(out).content).toContain('| **Password** | `[REDACTED:password-in-prose]` |');
  });
});

describe('a password after the joiners the probe found missed (finding 5)', () => {
  it.each(MISSED_FORMS)('is redacted: %s', async (_name, form) => {
    const { text } = await redactText(form(PW));
    expect(text).not.toContain(PW);
    expect(text).toContain('[REDACTED:password-in-prose]');
  });
});

describe('auth code after the word password (finding 5)', () => {
  it.each(CODE_FORMS)('stays as written: %s', async (code) => {
    expect((await redactText(code)).text).toBe(code);
  });
});

const tmp = mkdtempSync(path.join(os.tmpdir(), 'agy-prose-md-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a session on disk with auth code and a search for it', () => {
  it('keeps the names in the code and in the command (no name is taken for a password and blanked session-wide)', async () => {
    const id = '00000000-0000-4000-8000-0000000000a1';
    const code = 'def set_password(self, pw):\n    password = hashlib.sha256(pw.encode()).hexdigest()\n    return {"email": email, password: hashedPassword}';
    const dir = writePlantedSession(
      path.join(tmp, 'auth-code'),
      id,
      [
        { field: 'content', text: `I found the hashing:\n\n\`\`\`python\n${code}\n\`\`\`` },
        { field: 'command', text: 'grep -rn hashlib.sha256 src/ && grep -rn hashedPassword src/' },
        { field: 'output', text: 'src/auth.py:12:    password = hashlib.sha256(pw.encode()).hexdigest()' },
      ],
      seededRandom(1),
    );
    const original = await readSession({ id, product: 'antigravity', root: path.dirname(dir), dir, mtimeMs: 0, ctimeMs: 0 });
    const { session, redactions } = await redactSession(original);
    expect(redactions).toEqual([]);
    const commands = session.steps.flatMap((s) => s.toolCalls.map((c) => c.args.CommandLine));
    expect(commands).toContain('grep -rn hashlib.sha256 src/ && grep -rn hashedPassword src/');
    expect(JSON.stringify(session)).not.toContain('[REDACTED');
  });
});

// Properties: FC_SEED replays a run, FC_RUNS sets the cases (test/helpers/properties.ts).
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
/** What a password holds: letters, digits and symbols, also those Markdown reads as marks inside a word. */
const PASSWORD_CHARS = `${UPPER}${LOWER}${DIGITS}!@#$%^&+=-_.*~`;

/**
 * A password as people choose them: a capital, letters, digits and symbols, one of `!@#$%^&+=` among them (so it is
 * not also a name in code such as `A_B0` or `a.b0`, which the rules leave alone), ending on a digit.
 */
const passwordArb = fc
  .tuple(
    fc.constantFrom(...UPPER),
    fc.string({ unit: fc.constantFrom(...PASSWORD_CHARS), minLength: 5, maxLength: 14 }),
    fc.constantFrom(...'!@#$%^&+='),
    fc.nat(),
    fc.constantFrom(...DIGITS),
  )
  .map(([first, middle, symbol, at, last]) => {
    const k = at % (middle.length + 1);
    return `${first}${middle.slice(0, k)}${symbol}${middle.slice(k)}${last}`;
  });
/** Text before and after, as a reply has it. */
const proseArb = fc.constantFrom('', 'Done. ', 'Here are the credentials:\n\n', '## Access\n\n', '> Note\n\n');
const afterArb = fc.constantFrom('', '\n', '.', ' (change it later)', '\n\nNext, run the migrations.');
/** Around a block (a table, a fence) text starts a line of its own: `Done. | Password | X |` is no table row. */
const beforeBlockArb = fc.constantFrom('', 'Here are the credentials:\n\n', '## Access\n\n', '> Note\n\n');
const afterBlockArb = fc.constantFrom('', '\n', '\n\nNext, run the migrations.');

/** Code that names a password: an identifier, an expression, a hash function or a type after it. */
const identifierArb = fc
  .tuple(fc.constantFrom('hashed', 'new', 'old', 'plain', 'stored', 'user'), fc.constantFrom('Password', 'Pw', 'Secret', 'Pass', 'Hash'))
  .map(([a, b]) => `${a}${b}`);
const codeArb = fc.oneof(
  identifierArb.map((name) => `{ email, password: ${name} }`),
  identifierArb.map((name) => `this.password = ${name};`),
  identifierArb.map((name) => `user.password = await hash(${name})`),
  fc.constantFrom('sha256', 'sha512', 'md5', 'bcrypt', 'argon2id', 'pbkdf2_sha256').map((fn) => `password = hashlib.${fn}(pw.encode()).hexdigest()`),
  fc.constantFrom('z.string()', 'String', 'str', 'Optional[str]', 'varchar(255)', 'DataTypes.STRING', 'Int64').map((type) => `password: ${type}`),
  fc.constantFrom('UTF-8', 'utf8', 'base64', 'hex', 'sha256', 'SHA-256').map((name) => `the password is ${name} encoded`),
  fc.tuple(fc.nat(9), fc.nat(30), fc.nat(20)).map(([a, b, c]) => `password policy since v${a}.${b}.${c}`),
);

describe('properties', () => {
  it('a generated password in any Markdown or language form is removed', async () => {
    const forms = [...MARKDOWN_FORMS, ...MISSED_FORMS];
    const around = fc.record({ before: proseArb, after: afterArb, beforeBlock: beforeBlockArb, afterBlock: afterBlockArb });
    await fc.assert(
      fc.asyncProperty(fc.nat(forms.length - 1), passwordArb, around, async (k, pw, { before, after, beforeBlock, afterBlock }) => {
        const form = forms[k]![1](pw);
        const block = /^\||[|`]$/.test(form);
        const text = block ? `${beforeBlock}${form}${afterBlock}` : `${before}${form}${after}`;
        const out = (await redactText(text)).text;
        expect(out, `${forms[k]![0]}: ${text}`).not.toContain(pw);
      }),
      propertyRuns(400),
    );
  });

  it('code naming a password, in Markdown too, stays as written', async () => {
    const wrap = fc.constantFrom((c: string) => c, (c: string) => `\`${c}\``, (c: string) => `\`\`\`ts\n${c}\n\`\`\``, (c: string) => `- ${c}`);
    await fc.assert(
      fc.asyncProperty(codeArb, wrap, proseArb, async (code, wrapIn, before) => {
        const text = `${before}${wrapIn(code)}`;
        expect((await redactText(text)).text).toBe(text);
      }),
      propertyRuns(300),
    );
  });
});
