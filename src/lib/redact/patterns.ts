/**
 * What counts as a secret: secretlint's recommended preset (maintained upstream), plus a few small patterns for
 * kinds issue 4 requires that the preset does not catch. Each own pattern says why it exists.
 */
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { PROSE_PREFILTER_SOURCES } from './prose.ts';

/** Options for rules of the preset, by rule id. */
const RULE_OPTIONS: Record<string, Record<string, unknown>> = {
  // AWS access key IDs (AKIA…) are only scanned when asked for; issue 4 requires them.
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
};

/** Rules of the preset left out, and why. */
const LEFT_OUT = new Set([
  // `secretlint-disable` comments are honoured by this rule. Transcript text is data, not config: a string saying
  // "secretlint-disable" must never switch detection off (in a batch it would silence the strings after it).
  '@secretlint/secretlint-rule-filter-comments',
  // Both report the whole URL and skip placeholder passwords (`postgres:password@`), and a second pass matches the
  // URL again around our marker. `url-password` below covers every scheme, redacts only the password (the host
  // stays visible to the auditor) and is idempotent.
  '@secretlint/secretlint-rule-basicauth',
  '@secretlint/secretlint-rule-database-connection-string',
]);

/**
 * The secretlint config: the rules of the recommended preset, registered one by one (secretlint 12 ignores
 * `disabled` on rules inside a preset, so the preset itself cannot be used with rules left out).
 */
export const SECRETLINT_CONFIG: SecretLintCoreConfig = {
  rules: recommendedRules
    .filter((rule) => !LEFT_OUT.has(rule.meta.id))
    .map((rule) => ({ id: rule.meta.id, rule, options: RULE_OPTIONS[rule.meta.id] ?? {} })),
};

/** Kind names for secretlint findings, by message id (more precise) or by rule name. */
const KIND_BY_MESSAGE: Record<string, string> = {
  AWSAccessKeyID: 'aws-access-key',
  AWSSecretAccessKey: 'aws-secret-key',
  AWSAccountID: 'aws-account-id',
  IncomingWebhook: 'slack-webhook',
};
const KIND_BY_RULE: Record<string, string> = {
  github: 'github-token',
  gitlab: 'gitlab-token',
  slack: 'slack-token',
  openai: 'openai-key',
  anthropic: 'anthropic-key',
  groq: 'groq-key',
  huggingface: 'huggingface-token',
  privatekey: 'private-key',
  npm: 'npm-token',
  sendgrid: 'sendgrid-key',
  shopify: 'shopify-token',
  grafana: 'grafana-token',
  linear: 'linear-key',
  notion: 'notion-token',
  '1password': '1password-token',
  'hashicorp-vault': 'vault-token',
  vercel: 'vercel-token',
  databricks: 'databricks-token',
  docker: 'docker-token',
  figma: 'figma-token',
};

/**
 * Every kind this redactor reports, with what it catches: `/about/` shows this list, README.md repeats it (a test
 * keeps them equal), and the property tests plant a secret of each. (The preset's gcp rule is not here: it only
 * reads files named `*.json`; the `private_key` of a service-account file is caught as `private-key`.)
 */
export const REDACTED_KINDS: readonly { kind: string; what: string }[] = [
  { kind: 'aws-access-key', what: 'AWS access key IDs (`AKIA…`, `ASIA…` and the other prefixes)' },
  { kind: 'aws-secret-key', what: 'AWS secret access keys written after their name (`aws_secret_access_key = …`), also ending in `/` or `+`' },
  { kind: 'aws-account-id', what: 'AWS account IDs written after their name (`AWS_ACCOUNT_ID=…`)' },
  { kind: 'github-token', what: 'GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`)' },
  { kind: 'gitlab-token', what: 'GitLab personal access tokens (`glpat-`)' },
  { kind: 'grafana-token', what: 'Grafana Cloud and service-account tokens (`glc_`, `glsa_`)' },
  { kind: 'slack-token', what: 'Slack tokens (`xoxb-`, `xoxp-`, `xapp-`, …)' },
  { kind: 'slack-webhook', what: 'Slack incoming-webhook URLs' },
  { kind: 'openai-key', what: 'OpenAI keys (`sk-proj-`, `sk-svcacct-`, `sk-admin-`, legacy `sk-…`)' },
  { kind: 'anthropic-key', what: 'Anthropic API keys (`sk-ant-api…`)' },
  { kind: 'groq-key', what: 'Groq API keys (`gsk_`)' },
  { kind: 'huggingface-token', what: 'Hugging Face tokens (`hf_`)' },
  { kind: 'google-api-key', what: 'Google API keys (`AIza…`)' },
  { kind: 'stripe-key', what: 'Stripe secret and restricted keys (`sk_live_`, `sk_test_`, `rk_…`)' },
  { kind: 'npm-token', what: 'npm tokens (`npm_`, and the token of an `.npmrc` `_authToken=` line)' },
  { kind: 'sendgrid-key', what: 'SendGrid keys (`SG.…`, with `-` and `_` too)' },
  { kind: 'shopify-token', what: 'Shopify tokens (`shpat_`, `shpca_`, `shppa_`, `shpss_`)' },
  { kind: 'linear-key', what: 'Linear API keys (`lin_api_`)' },
  { kind: 'notion-token', what: 'Notion integration tokens (`ntn_`)' },
  { kind: '1password-token', what: '1Password service-account tokens (`ops_…`)' },
  { kind: 'vault-token', what: 'HashiCorp Vault tokens (`hvs.`, `hvb.`, `hvr.`)' },
  { kind: 'vercel-token', what: 'Vercel tokens (`vcp_`, `vci_`, `vca_`, `vcr_`, `vck_`)' },
  { kind: 'databricks-token', what: 'Databricks tokens (`dapi…`)' },
  { kind: 'docker-token', what: 'Docker Hub personal access tokens (`dckr_pat_`)' },
  { kind: 'figma-token', what: 'Figma personal access tokens (`figd_`)' },
  { kind: 'telegram-bot-token', what: 'Telegram bot tokens (`<bot id>:AA…`)' },
  { kind: 'jwt', what: 'JSON Web Tokens (`eyJ….eyJ….…`)' },
  { kind: 'private-key', what: 'PEM private key blocks, also cut short or with escaped newlines' },
  { kind: 'url-password', what: 'the password of any `scheme://user:password@host` URL, the user empty or not, the password holding `/ # \' \\` or not (the host stays visible)' },
  { kind: 'bearer-token', what: 'the token after `Bearer `' },
  { kind: 'basic-auth-header', what: 'the credentials of an `Authorization: Basic …` header' },
  {
    kind: 'password-in-prose',
    what:
      'a password, PIN or passphrase written right after a word for it, in prose (`the admin password is …`, `FTP password: …`, `비밀번호는 …`, `パスワード：…`, `密码是…`, `contraseña: …`, `senha: …`, `mot de passe : …`, `Passwort: …`, `пароль: …`), when the value looks like one (a digit, a symbol or mixed case; not a variable, a path or a mask)',
  },
  {
    kind: 'password-assignment',
    what:
      'a password assigned to a variable, key or parameter named for it (`$pass = \'…\'`, `password="…"`, `DB_PASSWORD=…`, `-Password …`, `--password=…`, `new NetworkCredential("user", "…")`, `ConvertTo-SecureString "…" -AsPlainText`)',
  },
];

/** The kind shown in `[REDACTED:<kind>]` for a secretlint message. */
export function kindForSecretlint(ruleId: string, messageId: string): string {
  const rule = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  return KIND_BY_MESSAGE[messageId] ?? KIND_BY_RULE[rule] ?? rule;
}

/**
 * secretlint's AWS secret-key rule reports `[start of the whole match, start + length of the key]`, i.e. the
 * `AWS_SECRET_ACCESS_KEY=` prefix plus only the first part of the key (checked against 12.0.0). This is the
 * rule's own regex, run sticky at the reported start, to find where the key really is.
 */
export const AWS_SECRET_AT =
  /["']?(?:AWS|aws|Aws)?_?(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)["']?\s*(?::|=>|=)\s*["']?([A-Za-z0-9/+=]{40})/dy;

/**
 * An own pattern: `group` names the capture group to redact (0 = the whole match); with `startGroup`, the range
 * starts where that group starts instead (a group inside a lookbehind, see the Telegram pattern).
 */
export interface OwnPattern {
  kind: string;
  regex: RegExp;
  group: number;
  startGroup?: number;
}

/** Patterns for what the preset does not catch. All global + `d` (indices) so a group's range can be read. */
export const OWN_PATTERNS: OwnPattern[] = [
  // The preset's gcp rule only recognises a whole service-account JSON file; plain `AIza…` API keys are missed.
  { kind: 'google-api-key', regex: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/dg, group: 0 },
  // The preset has no Stripe rule. Restricted (rk_) keys are as sensitive as secret ones; pk_ keys are public.
  { kind: 'stripe-key', regex: /(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[0-9A-Za-z]{16,}/dg, group: 0 },
  // The preset's openai rule needs the `T3BlbkFJ` marker inside the key; current project keys and legacy 48-char
  // keys often lack it. `sk-ant-` (Anthropic) is left to the preset.
  {
    kind: 'openai-key',
    regex: /(?<![A-Za-z0-9_-])sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,}(?![A-Za-z0-9_-]))/dg,
    group: 0,
  },
  // No Telegram rule in the preset. `<bot id>:AA<secret>`; often glued to `bot` in API URLs, hence no \b. The bot
  // id sits in a lookbehind so that the regex starts at the literal `:AA`, which V8 searches for fast: led by the
  // digits it tried every digit of every string (3 × slower on the bench's transcripts).
  {
    kind: 'telegram-bot-token',
    regex: /(?<=(?<![0-9])([0-9]{8,10})):AA[A-Za-z0-9_-]{30,}(?![A-Za-z0-9_-])/dg,
    group: 0,
    startGroup: 1,
  },
  // secretlint's AWS rule wants a word boundary after the key, so a key ending in `/` or `+` (~3 % of real keys)
  // is missed; the same name-then-key shape, ended by anything that is not part of a key.
  {
    kind: 'aws-secret-key',
    regex: /(?:aws)?_?secret_?access_?key["']?\s*(?::|=>|=)\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/dgi,
    group: 1,
  },
  // The preset's SendGrid rule leaves out `-`, which about half of real keys hold (base64url).
  { kind: 'sendgrid-key', regex: /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/dg, group: 0 },
  // No JWT rule in the preset. Header and payload are base64url JSON objects, so both start with `eyJ`.
  {
    kind: 'jwt',
    regex: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/dg,
    group: 0,
  },
  // The preset's privatekey rule needs a complete block with at least 100 base64 characters. Transcripts cut long
  // values (`<truncated N bytes>`) and show blocks with escaped newlines, so: the header up to its END line, or
  // (no END) the key material that follows. NUL stops it, so it never runs into the next string of a batch.
  {
    kind: 'private-key',
    regex:
      /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[^\0]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)/dg,
    group: 0,
  },
  // Replaces the preset's basicauth / database rules (see SECRETLINT_CONFIG): any `scheme://user:pass@host`,
  // placeholders included (`postgres:password@` is redacted too: consistent and safer). Only the password goes.
  // The user may be empty (`redis://:pw@host`), and the password may hold what people type unencoded (`/ # ' \`):
  // it runs to the `@`, except a port followed by a path (`host:8080/a@b`), which is not a password. An image
  // digest (`image:1.2@sha256:…`) is not either. The scheme is a lookbehind so that the search starts at the
  // literal `://`: led by `[a-zA-Z]` the regex was tried at every word of every string, the slowest of all
  // patterns (15 × slower, 15 % of all redaction time). No `\b` before the scheme: `TOKENhttps://…` counts too.
  {
    kind: 'url-password',
    regex:
      /(?<=[a-zA-Z][a-zA-Z0-9+.-]{1,30}):\/\/[^\s:@/?#"'<>\\]{0,256}:((?!\[REDACTED:|\d{1,5}[/?#])[^\s@"<>]{1,256})@(?!sha\d+:)/dg,
    group: 1,
  },
  // The preset's `_authToken=` rule only reads files named `.npmrc`; an .npmrc line shown in a transcript is as
  // secret (legacy tokens are UUIDs, without the `npm_` prefix the preset's other rule wants). `${NPM_TOKEN}` is not.
  { kind: 'npm-token', regex: /_authToken\s*=\s*["']?([^\s"'$][^\s"']{7,})/dg, group: 1 },
  // No rule for HTTP auth headers in the preset. The token after `Bearer ` (any case), at least 16 characters.
  { kind: 'bearer-token', regex: /\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)/dgi, group: 1 },
  // Same for `Authorization: Basic <base64 user:pass>`.
  {
    kind: 'basic-auth-header',
    regex: /authorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{8,}=*)/dgi,
    group: 1,
  },
];

/**
 * How each token kind starts: its fixed prefix. Used where a token is found by its start alone: glued to the word
 * before it (below), and cut off at the end of a text (`CUT_TAILS`).
 */
const TOKEN_PREFIXES: readonly { kind: string; prefix: string }[] = [
  { kind: 'github-token', prefix: 'gh[pousr]_|github_pat_' },
  { kind: 'gitlab-token', prefix: 'glpat-' },
  { kind: 'grafana-token', prefix: 'glc_|glsa_' },
  { kind: 'slack-token', prefix: 'xox[a-z]-|xapp-' },
  { kind: 'anthropic-key', prefix: 'sk-ant-' },
  { kind: 'openai-key', prefix: 'sk-' },
  { kind: 'groq-key', prefix: 'gsk_' },
  { kind: 'huggingface-token', prefix: 'hf_' },
  { kind: 'google-api-key', prefix: 'AIza' },
  { kind: 'stripe-key', prefix: '[sr]k_(?:live|test)_' },
  { kind: 'npm-token', prefix: 'npm_' },
  { kind: 'sendgrid-key', prefix: 'SG\\.' },
  { kind: 'shopify-token', prefix: 'shp(?:at|ca|pa|ss)_' },
  { kind: 'linear-key', prefix: 'lin_api_' },
  { kind: 'notion-token', prefix: 'ntn_' },
  { kind: '1password-token', prefix: 'ops_' },
  { kind: 'vault-token', prefix: 'hv[sbr]\\.' },
  { kind: 'vercel-token', prefix: 'vc[pciark]_' },
  { kind: 'databricks-token', prefix: 'dapi' },
  { kind: 'docker-token', prefix: 'dckr_pat_' },
  { kind: 'figma-token', prefix: 'figd_' },
  { kind: 'jwt', prefix: 'eyJ' },
  { kind: 'aws-access-key', prefix: 'A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA' },
];

/** The token prefixes ending in `_`: an `_` after one of them is the token's own, never glue before another. */
const ENDS_IN_TOKEN_PREFIX = /(?:ops|gh[pousr]|pat|glc|glsa|gsk|hf|npm|shp(?:at|ca|pa|ss)|api|ntn|vc[pciark]|figd|live|test)_$/;

/** Every token prefix written out, for `indexOf` (far faster than a regex alternation over long texts). */
const TOKEN_PREFIX_LITERALS = [
  'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-', 'glc_', 'glsa_', 'xox', 'xapp-', 'sk-', 'gsk_',
  'hf_', 'AIza', 'sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'npm_', 'SG.', 'shpat_', 'shpca_', 'shppa_',
  'shpss_', 'lin_api_', 'ntn_', 'ops_', 'hvs.', 'hvb.', 'hvr.', 'vcp_', 'vci_', 'vca_', 'vcr_', 'vck_', 'dapi',
  'dckr_pat_', 'figd_', 'eyJ', 'A3T', 'AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA',
];
/** A whole token at a position: its prefix and 16 token characters at least. */
const TOKEN_AT = new RegExp(`(?:${TOKEN_PREFIXES.map((t) => t.prefix).join('|')})[A-Za-z0-9_.-]{16,}`, 'y');

/**
 * Where tokens glued to a letter, digit or `_` before them start (`TOKENghp_…`), as `[start, end)` ranges, none
 * inside another (a prefix-like run inside a token, `AIzaANVA…`, is not a second token). Each prefix must be
 * followed by 16 token characters, as every real token is at least, so that words merely holding a prefix
 * (`task-`, `rapidapi`) do not count.
 */
export function gluedTokens(text: string): [number, number][] {
  const found: [number, number][] = [];
  for (const literal of TOKEN_PREFIX_LITERALS) {
    for (let i = text.indexOf(literal, 1); i !== -1; i = text.indexOf(literal, i + 1)) {
      const before = text[i - 1]!;
      const glued = /[A-Za-z0-9]/.test(before) || (before === '_' && !ENDS_IN_TOKEN_PREFIX.test(text.slice(Math.max(0, i - 8), i)));
      if (!glued) continue;
      TOKEN_AT.lastIndex = i;
      const token = TOKEN_AT.exec(text);
      if (token) found.push([i, i + token[0].length]);
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  const whole: [number, number][] = [];
  for (const range of found) if (whole.length === 0 || range[0] >= whole[whole.length - 1]![1]) whole.push(range);
  return whole;
}

/**
 * The start of a secret at the very end of a text that was cut (the reader keeps the first 4 MiB of a file): too
 * short for its rule, but part of a secret all the same. Group 1 is what goes. Only tried on the tail of a text
 * known to be cut (`ScanOptions.cutAtEnd`).
 */
export const CUT_TAILS: readonly { kind: string; regex: RegExp }[] = [
  ...TOKEN_PREFIXES.map(({ kind, prefix }) => ({ kind, regex: new RegExp(`((?:${prefix})[A-Za-z0-9_.+/=-]*)$`, 'd') })),
  { kind: 'aws-secret-key', regex: /secret_?access_?key["']?\s*(?::|=>|=)\s*["']?([A-Za-z0-9/+]+)$/di },
  { kind: 'url-password', regex: /:\/\/[^\s:@/?#"'<>\\]{0,256}:((?!\d{1,5}[/?#])[^\s@"<>]+)$/d },
  { kind: 'bearer-token', regex: /\bbearer\s+([A-Za-z0-9._~+/-]+)$/di },
];

/**
 * A cheap test run on every string first: only strings that contain one of these anchors go through secretlint
 * and the own patterns. It lists the literal every preset rule's regex needs (read from the 12.0.0 bundle:
 * AWS prefixes and `secret`/`account`, `PRIVATE KEY`, npm, Slack, SendGrid, Shopify, GitHub, GitLab, Grafana,
 * OpenAI/Anthropic/Groq, Hugging Face, Linear, Notion, 1Password, Vault, Vercel, Databricks, Docker, Figma) and the
 * own patterns' anchors. Case-insensitive, so it errs on the side of scanning. A test checks every kind passes it.
 * When the preset gains a rule with a new prefix, add it here (and a test case).
 */
export const PREFILTER = new RegExp(
  [
    // preset
    'A3T', 'AKIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA', 'secret', 'account',
    'PRIVATE KEY', 'x-oauth-basic', '_authToken', 'npm_', 'xox', 'xapp', 'hooks\\.slack', 'SG\\.', 'shp',
    'gh[pousr]_', 'github_pat_', 'glpat-', 'glc_', 'glsa_', 'sk-', 'gsk_', 'hf_', 'lin_api_', 'ntn_', 'ops_',
    'hv[sbr]\\.', 'vc[pciark]_', 'dapi', 'dckr_pat_', 'figd_',
    // own
    'AIza', '[sr]k_', '[0-9]:AA', 'eyJ', 'BEGIN', ':\\/\\/', 'bearer', 'authorization',
  ].join('|'),
  'i',
);

/**
 * The prefilter of passwords in prose (prose.ts): a reading that passes it but not PREFILTER is scanned for those
 * patterns only, without secretlint (whose rules cannot match there), which keeps the many strings about passwords
 * in code from doubling the cost of the scan.
 */
export const PROSE_PREFILTER = new RegExp(PROSE_PREFILTER_SOURCES.join('|'), 'i');

/**
 * PREFILTER, or PROSE_PREFILTER, or an escape that can hide one of its anchors: `\u0067hp_`, `postgres:\/\/`, `ghp%5F`. Decoding the
 * other escapes (`\n`, `\t`, `\"`, `\\`…) yields control characters, quotes and backslashes, which no anchor holds,
 * so a text matching neither has no reading that could pass PREFILTER. A text that matches is read in every
 * decoded form (`readings.ts`) and each reading is prefiltered on its own.
 */
export const SCAN_TRIGGER = new RegExp(`${PREFILTER.source}|${PROSE_PREFILTER.source}|\\\\[u/]|%[0-9a-f]{2}`, 'i');
