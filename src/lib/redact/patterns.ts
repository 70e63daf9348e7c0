/**
 * What counts as a secret: secretlint's recommended preset (maintained upstream), plus a few small patterns for
 * kinds issue 4 requires that the preset does not catch. Each own pattern says why it exists.
 */
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';

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
  IncomingWebhooks: 'slack-webhook',
};
const KIND_BY_RULE: Record<string, string> = {
  github: 'github-token',
  gitlab: 'gitlab-token',
  slack: 'slack-token',
  openai: 'openai-key',
  anthropic: 'anthropic-key',
  privatekey: 'private-key',
  npm: 'npm-token',
  sendgrid: 'sendgrid-key',
  shopify: 'shopify-token',
  gcp: 'gcp-service-account',
};

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

/** An own pattern: `group` names the capture group to redact (0 = the whole match). */
export interface OwnPattern {
  kind: string;
  regex: RegExp;
  group: number;
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
  // No Telegram rule in the preset. `<bot id>:AA<secret>`; often glued to `bot` in API URLs, hence no \b.
  { kind: 'telegram-bot-token', regex: /(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_-]{30,}(?![A-Za-z0-9_-])/dg, group: 0 },
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
  {
    kind: 'url-password',
    regex: /\b[a-zA-Z][a-zA-Z0-9+.-]{1,30}:\/\/[^\s:@/?#"'<>\\]{1,256}:((?!\[REDACTED:)[^\s@/?#"'<>\\]{1,256})@/dg,
    group: 1,
  },
  // No rule for HTTP auth headers in the preset. The token after `Bearer ` (any case), at least 16 characters.
  { kind: 'bearer-token', regex: /\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)/dgi, group: 1 },
  // Same for `Authorization: Basic <base64 user:pass>`.
  {
    kind: 'basic-auth-header',
    regex: /\bauthorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{8,}=*)/dgi,
    group: 1,
  },
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
