/**
 * A fast-check generator of well-formed secrets for every kind the redactor claims (`REDACTED_KINDS`), each with
 * the context its rule needs (`AWS_SECRET_ACCESS_KEY=`, `Bearer `, `scheme://user:`), and ways to write a
 * secret's text the way transcripts and URLs do. Secrets are generated, never written in this file, so no scanner
 * mistakes it for a leak.
 */
import fc from 'fast-check';

/** A secret to plant: `text` goes into a field; `needle` is its random part, which must never be published. */
export interface PlantedSecret {
  kind: string;
  text: string;
  needle: string;
  /**
   * The secret alone, without the context its rule needs (`AWS_SECRET_ACCESS_KEY=`, `scheme://user:`, `Bearer `),
   * as a user may paste it in another step; absent where it is too plain to be sought without its context (an
   * account ID is 12 digits).
   */
  bare?: string;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';

/** `min`–`max` characters drawn from `alphabet`. */
function chars(alphabet: string, min: number, max = min): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
}

/**
 * A random part long and varied enough to be unique in the site and to hold letters and digits: generated strings
 * that happen to be all digits or all one case would not be unique, so one of each is forced in.
 */
function body(alphabet: string, min: number, max = min): fc.Arbitrary<string> {
  const letter = [...alphabet].find((c) => /[A-Za-z]/.test(c)) ?? '';
  const digit = [...alphabet].find((c) => /[0-9]/.test(c)) ?? '';
  const forced = letter.length + digit.length;
  return chars(alphabet, min - forced, max - forced).map((s) => `${letter}${s}${digit}`);
}

function planted(kind: string, text: fc.Arbitrary<Omit<PlantedSecret, 'kind'>>): fc.Arbitrary<PlantedSecret> {
  return text.map((t) => ({ kind, ...t }));
}

/** A token that is its own needle after a fixed prefix. */
function token(kind: string, prefixes: string[], rest: fc.Arbitrary<string>): fc.Arbitrary<PlantedSecret> {
  return planted(
    kind,
    fc.tuple(fc.constantFrom(...prefixes), rest).map(([prefix, r]) => ({ text: prefix + r, needle: r })),
  );
}

/** One generator per kind of `REDACTED_KINDS`. */
export const SECRET_GENERATORS: Record<string, fc.Arbitrary<PlantedSecret>> = {
  'aws-access-key': token('aws-access-key', ['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA'], body(UPPER + DIGITS, 16)),
  // Real keys are 40 characters of base64: `/` and `+` anywhere, the last character included (~3 % of keys).
  'aws-secret-key': planted(
    'aws-secret-key',
    fc
      .tuple(
        fc.constantFrom('AWS_SECRET_ACCESS_KEY=', 'aws_secret_access_key = ', 'AWS_SECRET_ACCESS_KEY: "', "secret_access_key='"),
        body(ALNUM, 20),
        chars(ALNUM + '/+', 19),
        chars(ALNUM + '/+', 1),
      )
      .map(([name, a, b, c]) => ({ text: name + a + b + c, needle: a, bare: a + b + c })),
  ),
  'aws-account-id': planted(
    'aws-account-id',
    fc
      .tuple(fc.constantFrom('AWS_ACCOUNT_ID=', 'aws_account_id: ', 'Account = '), chars(DIGITS, 12))
      .map(([name, digits]) => ({ text: name + digits, needle: digits })),
  ),
  'github-token': fc.oneof(
    token('github-token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], body(ALNUM, 36)),
    token('github-token', ['github_pat_'], body(ALNUM, 82)),
  ),
  'gitlab-token': token('gitlab-token', ['glpat-'], body(ALNUM, 20, 40)),
  'grafana-token': fc.oneof(
    token('grafana-token', ['glc_'], body(ALNUM, 32, 80)),
    planted(
      'grafana-token',
      fc.tuple(body(ALNUM, 32), chars(HEX, 8)).map(([a, h]) => ({ text: `glsa_${a}_${h}`, needle: a })),
    ),
  ),
  'slack-token': planted(
    'slack-token',
    fc
      .tuple(fc.constantFrom('xoxb-', 'xoxp-', 'xapp-'), chars(DIGITS, 10, 13), chars(DIGITS, 10, 13), body(ALNUM, 24))
      .map(([prefix, a, b, c]) => ({ text: `${prefix}${a}-${b}-${c}`, needle: c })),
  ),
  'slack-webhook': planted(
    'slack-webhook',
    fc
      .tuple(chars(UPPER + DIGITS, 9), chars(UPPER + DIGITS, 9), body(ALNUM, 24))
      .map(([t, b, s]) => ({ text: `https://hooks.slack.com/services/T${t}/B${b}/${s}`, needle: s })),
  ),
  'openai-key': fc.oneof(
    token('openai-key', ['sk-proj-', 'sk-svcacct-', 'sk-admin-'], body(ALNUM, 40, 60)),
    token('openai-key', ['sk-'], body(ALNUM, 48)),
  ),
  'anthropic-key': planted(
    'anthropic-key',
    fc.tuple(chars('0123456789', 1), body(ALNUM, 93)).map(([n, b]) => ({ text: `sk-ant-api0${n}-${b}AA`, needle: b })),
  ),
  'groq-key': token('groq-key', ['gsk_'], body(ALNUM, 52)),
  'huggingface-token': token('huggingface-token', ['hf_'], body(UPPER + LOWER, 34)),
  'google-api-key': token('google-api-key', ['AIza'], body(ALNUM, 35)),
  'stripe-key': token('stripe-key', ['sk_live_', 'sk_test_', 'rk_live_'], body(ALNUM, 24, 40)),
  'npm-token': fc.oneof(
    token('npm-token', ['npm_'], body(ALNUM, 36)),
    planted(
      'npm-token',
      body(ALNUM, 36).map((t) => ({ text: `//registry.npmjs.org/:_authToken=${t}`, needle: t })),
    ),
  ),
  // base64url: about half of real keys hold a `-` (or `_`), anywhere.
  'sendgrid-key': planted(
    'sendgrid-key',
    fc.tuple(body(ALNUM + '-_', 22), body(ALNUM + '-_', 43)).map(([a, b]) => ({ text: `SG.${a}.${b}`, needle: b })),
  ),
  'shopify-token': token('shopify-token', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], body(ALNUM, 32)),
  'linear-key': token('linear-key', ['lin_api_'], body(ALNUM, 40)),
  'notion-token': planted(
    'notion-token',
    fc.tuple(chars(DIGITS, 11), body(ALNUM, 35)).map(([d, b]) => ({ text: `ntn_${d}${b}`, needle: b })),
  ),
  // secretlint checks that the token's body is base64 of a JSON object.
  '1password-token': planted(
    '1password-token',
    fc.tuple(body(ALNUM, 24), body(ALNUM, 40)).map(([email, key]) => {
      let json = `{"email":"${email}@1passwordserviceaccounts.lcl","secretKey":"${key}","srpX":"${key.toLowerCase()}"`;
      while ((json.length + 1) % 3 !== 1) json += ' '; // so that the base64 ends in `fQ==`, as the rule wants
      const encoded = Buffer.from(`${json}}`).toString('base64');
      return { text: `ops_${encoded}`, needle: encoded.slice(2, -4) };
    }),
  ),
  'vault-token': fc.oneof(
    token('vault-token', ['hvs.', 'hvr.'], body(ALNUM, 95)),
    token('vault-token', ['hvb.'], body(ALNUM, 140)),
  ),
  'vercel-token': token('vercel-token', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], body(ALNUM, 24)),
  'databricks-token': token('databricks-token', ['dapi'], body(HEX, 32)),
  'docker-token': token('docker-token', ['dckr_pat_'], body(ALNUM, 27)),
  'figma-token': token('figma-token', ['figd_'], body(ALNUM, 40)),
  'telegram-bot-token': planted(
    'telegram-bot-token',
    fc
      .tuple(chars('123456789', 1), chars(DIGITS, 8), body(ALNUM, 33))
      .map(([d, ds, b]) => ({ text: `${d}${ds}:AA${b}`, needle: b })),
  ),
  jwt: planted(
    'jwt',
    fc
      .tuple(body(ALNUM, 20), body(ALNUM, 24), body(ALNUM, 32))
      .map(([h, p, s]) => ({ text: `eyJ${h}.eyJ${p}.${s}`, needle: s })),
  ),
  'private-key': planted(
    'private-key',
    fc
      .tuple(fc.constantFrom('RSA ', 'EC ', 'OPENSSH ', ''), body(ALNUM, 64), chars(ALNUM + '+/', 64, 200), fc.boolean())
      .map(([type, first, rest, whole]) => ({
        text:
          `-----BEGIN ${type}PRIVATE KEY-----\nMII${first}\n${rest}\n` +
          (whole ? `-----END ${type}PRIVATE KEY-----` : '<truncated 2100 bytes>'),
        needle: first,
      })),
  ),
  // Every form: an empty user (`redis://:pw@host`), and passwords holding what people type unencoded.
  'url-password': planted(
    'url-password',
    fc
      .tuple(
        fc.constantFrom('postgres', 'postgresql', 'mysql', 'https', 'redis', 'amqp', 'mongodb+srv'),
        fc.oneof(chars(LOWER, 3, 8), fc.constant('')),
        body(ALNUM, 12, 24),
        fc.constantFrom('', '/', '#', "'", '\\', '/#', '+'),
        chars(ALNUM, 0, 6),
        fc.constantFrom('db.internal:5432/app', 'host', 'cache.example.com:6379/0?ssl=true'),
      )
      .map(([scheme, user, password, odd, more, host]) => ({
        text: `${scheme}://${user}:${password}${odd}${more}@${host}`,
        needle: password,
        bare: `${password}${odd}${more}`,
      })),
  ),
  'bearer-token': planted(
    'bearer-token',
    fc
      .tuple(fc.constantFrom('Authorization: Bearer ', 'authorization: bearer ', '-H "Authorization: Bearer '), body(ALNUM, 32, 48))
      .map(([head, t]) => ({ text: head + t, needle: t, bare: t })),
  ),
  'basic-auth-header': planted(
    'basic-auth-header',
    body(ALNUM, 24).map((b) => ({ text: `Authorization: Basic ${b}==`, needle: b })),
  ),
  // Passwords people write in their own words, in the languages of real sessions, and in Markdown as replies write
  // them (issue 27 point 4: bold, a code span, a list label, a table row or column; a table is lines of its own).
  'password-in-prose': planted(
    'password-in-prose',
    fc
      .tuple(
        fc.constantFrom(
          ...[
            'the admin password is ', 'FTP password: ', 'my password = ', 'root password for the server: ', 'Wi-Fi passwd: ',
            '비밀번호는 ', '관리자 비밀번호: ', 'パスワードは ', 'パスワード：', '密码是', '密碼：', 'la contraseña: ', 'a senha: ',
            'le mot de passe : ', 'das Passwort: ', 'мой пароль: ', 'the PIN code: ', 'I set the password to ', 'user admin, pw: ',
            '비밀번호로 ', '密码改为', 'Tài khoản admin, mật khẩu là ',
          ].map((lead) => (v: string) => lead + v),
          (v: string) => `The database password is **${v}**`,
          (v: string) => `- **Password**: \`${v}\``,
          (v: string) => `**비밀번호**: \`${v}\``,
          (v: string) => `\n| Password | ${v} |\n`,
          (v: string) => `\n| User | Password |\n|---|---|\n| admin | ${v} |\n`,
        ),
        body(ALNUM + '!@#^*+', 8, 16),
      )
      // No `bare`: where a prose password ends depends on what follows it (`…0!a`), so a bare copy written alone is
      // not the same string (redact.test.ts checks one that is).
      .map(([form, value]) => ({ text: form(value), needle: value })),
  ),
  // Passwords assigned in scripts: PowerShell, shell, .env, JSON, .NET, Go.
  'password-assignment': planted(
    'password-assignment',
    fc
      .tuple(
        fc.constantFrom(
          (v: string) => `\n$pass = '${v}'`,
          (v: string) => `\n$Password = "${v}"`,
          (v: string) => `Connect-Ftp -Server ftp.example.com -Password ${v}`,
          (v: string) => `mysql --user=root --password=${v}`,
          (v: string) => `export DB_PASSWORD=${v}`,
          (v: string) => `PGPASSWORD=${v} psql -h db`,
          (v: string) => `new NetworkCredential("ftpuser", "${v}")`,
          (v: string) => `$secure = ConvertTo-SecureString "${v}" -AsPlainText -Force`,
          (v: string) => `{"username": "admin", "password": "${v}"}`,
          (v: string) => `ftpPassword := "${v}"`,
        ),
        body(ALNUM + '!@#^*+', 8, 16),
      )
      .map(([write, value]) => ({ text: write(value), needle: value })), // no `bare`, as for prose
  ),
};

/** Words a secret is glued to. */
const GLUE = ['TOKEN', 'key', 'x', '_', '9', 'id'];

/** Characters a secret is planted between: none is part of any kind's token, so the secret stays whole. */
const EDGES = [' ', '\n', '\t', '"', "'", ',', ';', '(', ')', '<', '>', '[', ']', '{', '}', '|', '!', '*', '\\', '\r\n', ' é ', ' 日本 '];

/** Text around a secret: prose with the characters JSON, HTML and Markdown treat specially. */
export const surroundingText: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom(...(LOWER + UPPER + DIGITS + ' \n\t"\'\\/<>&`*_#:=.-é日😀')),
  maxLength: 40,
});

/** Where in a string a secret goes; `glued`: right after a word, with nothing between (`TOKENghp_…`). */
export type Placement = 'alone' | 'start' | 'after-newline' | 'middle' | 'end' | 'glued';

/** `secret` planted into `around` at `placement`, between edges that keep it whole. */
export function plantInto(around: string, secret: string, placement: Placement, edge: number): string {
  const left = EDGES[edge % EDGES.length]!;
  const right = EDGES[(edge * 7 + 3) % EDGES.length]!;
  switch (placement) {
    case 'alone':
      return secret;
    case 'start':
      return `${secret}${right}${around}`;
    case 'after-newline':
      return `\n${secret}${right}${around}`;
    case 'middle': {
      const at = Math.floor(around.length / 2);
      return `${around.slice(0, at)}${left}${secret}${right}${around.slice(at)}`;
    }
    case 'end':
      return `${around}${left}${secret}`;
    case 'glued':
      return `${around}${left}${GLUE[edge % GLUE.length]}${secret}${right}`;
  }
}

/** Where a secret goes in a string: the placement, the text around it, and which edges (see `plantInto`). */
export interface Where {
  placement: Placement;
  around: string;
  edge: number;
}

/** A placement, the text around the secret and an edge index, together. */
export const placementArb: fc.Arbitrary<Where> = fc.record({
  placement: fc.constantFrom<Placement>('alone', 'start', 'after-newline', 'middle', 'end', 'glued'),
  around: surroundingText,
  edge: fc.nat(1000),
});

/**
 * How a secret's text is written before it is planted: as is, or with its separators (`_`, `-`, `.`, `:`, `/`, and
 * any letter not ASCII, as UTF-8) percent-encoded, as in a URL's query (`?token=ghp%5F…`). The needle, letters
 * and digits, stays as generated.
 */
export function percentEncodeSeparators(text: string): string {
  return text.replace(/[^A-Za-z0-9]/gu, (c) =>
    [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/**
 * A JSON writer that escapes more than it must, as other writers do (and as a hostile one may): `/` as `\/`, and
 * any character as `\u00XX`, chosen by `rng`. Its output parses to the same value as `JSON.stringify`'s.
 */
export function stringifyEscaping(value: unknown, rng: () => number): string {
  return JSON.stringify(value).replace(/"(?:[^"\\]|\\.)*"/g, (literal) => {
    let out = '"';
    const inner = literal.slice(1, -1);
    for (let i = 0; i < inner.length; i++) {
      const c = inner[i]!;
      if (c === '\\') {
        out += inner.slice(i, i + 2);
        i++;
        // A \uXXXX escape carries 4 more characters.
        if (inner[i] === 'u') {
          out += inner.slice(i + 1, i + 5);
          i += 4;
        }
        continue;
      }
      const roll = rng();
      if (c === '/' && roll < 0.5) out += '\\/';
      else if (roll < 0.08 && c.charCodeAt(0) < 0x80) out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      else out += c;
    }
    return `${out}"`;
  });
}

/**
 * The forms in which a needle could be published: a published file is read as is, and with JSON escapes (up to
 * three levels) and percent escapes decoded, so a needle written `\u0041…` in a raw line is still found. This
 * decoder is deliberately independent of the redactor's own (`readings.ts`).
 */
export function decodedForms(text: string): string[] {
  const forms = [text];
  let current = text;
  for (let level = 0; level < 3 && current.includes('\\'); level++) {
    current = current.replace(/\\u([0-9a-fA-F]{4})|\\(.)/g, (_, hex: string | undefined, c: string) =>
      hex ? String.fromCharCode(Number.parseInt(hex, 16)) : c === 'n' ? '\n' : c === 't' ? '\t' : c,
    );
    forms.push(current);
  }
  for (const form of forms.slice()) {
    if (/%[0-9a-fA-F]{2}/.test(form)) {
      forms.push(form.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))));
    }
  }
  return forms;
}
