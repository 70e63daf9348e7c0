/**
 * Credentials people write in their own words and scripts (issue 21): a password, PIN or passphrase right after a
 * word for it ("the admin password is …", "FTP password: …", "비밀번호는 …", "パスワード：…", "密码是…"), or assigned
 * to a variable or parameter that names it (`$pass = '…'`, `-Password …`, `DB_PASSWORD=…`,
 * `new NetworkCredential("user", "…")`). No rule set knows these: they have no prefix, so each pattern needs the
 * word for it before the value, and the value must look like one (see each `accept`). Where these judge wrongly the
 * owner can check: every one is listed on `/report/`, and the session says so on its page.
 */
import type { OwnPattern } from './patterns.ts';

/** Kinds of prose credentials, as shown in `[REDACTED:<kind>]`. */
export const PROSE_KINDS = ['password-in-prose', 'password-assignment'] as const;

/** True for a kind found by the word for it (listed on `/report/` for an owner to check), not by its format. */
export function isProseKind(kind: string): boolean {
  return (PROSE_KINDS as readonly string[]).includes(kind);
}

/** Words for a password, PIN or passphrase written in Latin or Cyrillic letters: whole words only. */
const WORDS_SPACED = [
  'pass(?:word|wd|phrase|code)?', 'pwd', 'pw', 'pin(?: ?code)?', 'contrase[ñn]a', 'senha', 'mot de passe', 'passwort',
  'kennwort', 'пароль', 'wachtwoord', 'has[łl]o', 'parola', '[şs]ifre', 'kata sandi', 'm[ậa]t kh[ẩa]u',
];
/** Abbreviations written before the value with only a space (`passwd Sunny2024!x`), as in a config or a note. */
const WORDS_THEN_SPACE = ['passwd', 'pwd', 'pw'];
/** Words for it in scripts without spaces between words, or with particles glued on (`비밀번호는`): any place. */
const WORDS_GLUED = ['비밀\\s?번호', '암호', '패스워드', 'パスワード', '暗証番号', '密码', '密碼', '口令', 'पासवर्ड'];
/** Not after `.` or `->`: `this.password = …`, `user->password = …` assign an expression in code. */
const LATIN_WORD_START = '(?<![\\p{L}\\p{N}_$.-])(?<!->)';
const LATIN_WORDS = `${LATIN_WORD_START}(?:${WORDS_SPACED.join('|')})(?![\\p{L}\\p{N}_])`;

/**
 * What joins a Latin or Cyrillic word and the value: `:`, `=`, "is", "was", "will be", "(set|changed…) to", and the
 * other languages' ways (`est`, `ist`, `é`, `es`, Vietnamese `là`, `это`). A space alone is not enough ("password reset link").
 * "… to" comes before "is": the first joiner that fits is the only one tried, and "is set to X" must not stop at
 * "is" and take `set` for the value.
 */
const JOINER =
  '\\s*(?:[:=：]|=>|->|\\s(?:(?:is|was|has been|will be|got)\\s+)?(?:(?:set|changed|reset|updated)\\s+)?to\\s*:?|' +
  '\\s(?:is|was|will be|should be|est|ist|lautet|é|es|là|это)\\s*:?)\\s*';
/**
 * After a Korean, Japanese or Chinese word: a particle (`는`, `로`, `를`, `は`, `を`…), "(set|changed) to" in Chinese
 * (`设置为`, `改为`, `已更改为`), `:`, or only a space. The value stops at the next Hangul, kana or Han character, so a
 * particle after it (`비밀번호로 X를`, `パスワードをXに変更`) ends it.
 */
const JOINER_GLUED =
  '\\s*(?:[:=：]|는|은|이|가|로|으로|를|을|도|は|が|を|も|是|' +
  '(?:已经|已經|已|被)?(?:设置|設置|设定|設定|设|設|更改|修改|改|重置|重设|重設|更新|变更|變更)?(?:为|為|成))?\\s*';

/** A qualifier between the word and the joiner: "password for root", "password of the FTP account". */
const QUALIFIER = '(?:\\s+(?:for|of|to)\\s+[^\\n:=.,;]{1,40}?)?';

/** The value: no spaces, quotes or brackets, not ending on punctuation that closes a sentence. */
const VALUE_CHAR = '[^\\s"\'`<>,;，。、）)\\\\[\\]{}()\\p{sc=Hangul}\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}]';
const VALUE = `(${VALUE_CHAR}{3,63}(?<![.:!?]))`;

/** A value that refers to a password instead of being one: a variable, a template, an environment lookup, a mask. */
const REFERENCE =
  /^(?:\$|%|\{\{|<|\[REDACTED|\*|#|•{3}|x{4}|\.{3}|…|process\.env|os\.(?:environ|getenv)|getenv|env[.:[(]|secrets?\.|config\.|self\.|this\.|args?\.|options?\.|request\.|req\.|input\(|getpass|read-host|null$|none$|nil$|undefined$|true$|false$|required$)/i;

/** Names written after `password` in code and docs that are never one: hash functions, encodings, types. */
const NAMES_NOT_VALUES =
  /^(?:md5|sha-?(?:1|224|256|384|512)|sha3(?:-\d+)?|bcrypt|scrypt|argon2(?:i|d|id)?|pbkdf2(?:[-_]?(?:hmac[-_]?)?sha-?\d+)?|hmac(?:[-_]?sha-?\d+)?|blake2[bs]?|crc32|utf-?(?:8|16|32)(?:le|be)?|latin-?1|iso-?8859-?\d+|ascii|base64(?:url)?|hex|u?int(?:8|16|32|64|128)?|float(?:32|64)?|bytes\d*|char\d*|varchar\d*|str|string|text|bool(?:ean)?|number|secretstr|(?:big)?u?int(?:8|16|32|64)(?:clamped)?array|float(?:32|64)array|arraybuffer(?:like|view)?)$/i;
/** A version (`v2.1.0`, `1.2.3-rc1`). */
const VERSION = /^v?\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.-]+)?$/;
/** Letters in camelCase or PascalCase: `hashedPassword`, `newPassword`, `SecretStr`, `URLPatternResult`. */
const CAMEL_OR_PASCAL = /^(?:[a-z]{2,}(?:[A-Z]+[a-z]+)+|(?:[A-Z]+[a-z]+){2,})$/;
/** Names joined by dots (`hashlib.sha256`, `user.password`, `DataTypes.STRING`, `z.string`). */
const MEMBER_CHAIN = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/;

/**
 * A name in code: camelCase or PascalCase letters, or a member chain that starts in lower case or holds no digit.
 * So a password of two capitalised words (`SunnyDay`) or of letters joined by dots (`Sunny.day`) is missed too;
 * `Sunny.Day2024` is not.
 */
function isName(value: string): boolean {
  return CAMEL_OR_PASCAL.test(value) || (MEMBER_CHAIN.test(value) && (/^[a-z_$]/.test(value) || !/[0-9]/.test(value)));
}

/** A name, version or type that code and docs write after `password`, not a value (see each constant). */
function namesNoValue(value: string): boolean {
  return NAMES_NOT_VALUES.test(value) || VERSION.test(value) || isName(value);
}

/**
 * Looks like a credential: not a reference, a path, a URL, a file name, a name in code, a version; two letters or
 * digits at least; and a digit, mixed case, or a symbol among 8 or more characters. Digits alone count where
 * `digitsOnly` says (a PIN).
 */
function looksLikeSecret(value: string, digitsOnly: boolean): boolean {
  if (REFERENCE.test(value) || namesNoValue(value)) return false;
  if (/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\|https?:|file:)/i.test(value)) return false;
  if (/\.(?:txt|md|json|ya?ml|js|ts|py|env|cfg|conf|ini|log|html|sh|ps1)$/i.test(value)) return false;
  if (/^[0-9]+$/.test(value)) return digitsOnly;
  if (/^[A-Za-z_][A-Za-z0-9_]*_[A-Za-z0-9_]*$/.test(value)) return false; // an identifier (`DB_CONFIG`), code not a value
  if ((value.match(/[\p{L}\p{N}]/gu) ?? []).length < 2) return false;
  return /[0-9]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value.slice(1))) || (value.length >= 8 && /[^\p{L}\p{N}]/u.test(value));
}

/** Letters and digits both, as a password after a word that is also a common word ("pass", "pw") must have. */
function lettersAndDigits(value: string): boolean {
  return /[A-Za-z]/.test(value) && /[0-9]/.test(value);
}

/** Segments of a variable's name (`db_password`, `ftpPassword`, `$MYSQL_ROOT_PWD`). */
function nameSegments(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}
/** The segments that make a variable a password's. */
const PASSWORD_SEGMENT = /^(?:[a-z]{0,8}(?:password|passwd|passphrase|passcode)|pass|pwd|[a-z]{2,6}pwd|pin|pw|pword)$/;
/** A last segment that makes it about a password, not the password (`password_hash`, `passwordField`). */
const META_SEGMENT =
  /^(?:hash|hashed|digest|policy|field|label|length|len|min|max|regex|pattern|placeholder|prompt|input|reset|hint|error|err|msg|message|visible|visibility|strength|id|type|file|path|dir|env|var|name|confirm|confirmation|required|changed|expired|expiry|expires|rule|rules|validator|valid|match|matches|ok|set|count|attempts|box|form|button|btn|text|view|toggle|icon|mode|url)$/;

function namesPassword(name: string): boolean {
  const segments = nameSegments(name);
  return segments.some((s) => PASSWORD_SEGMENT.test(s)) && !META_SEGMENT.test(segments[segments.length - 1] ?? '');
}

/** A quoted literal's content: 4 characters at least (`'1'` is a placeholder), not a reference, not a format string. */
function isLiteral(value: string): boolean {
  return value.length >= 4 && !REFERENCE.test(value) && !NAMES_NOT_VALUES.test(value) && !/^\s*$/.test(value) && !/%[sd]|\{\d*\}|\$\{|\$\(/.test(value);
}

/** A prose pattern: an own pattern with a check of the match (group 1 is the value unless said otherwise). */
export interface ProsePattern extends OwnPattern {
  accept: (match: RegExpMatchArray) => boolean;
  /** Where a match can start, found fast (literal-led); the pattern is then tried there only. */
  anchor?: RegExp;
  /**
   * With `anchor`: the pattern read another way (same groups), tried at each place where `regex` matches too. It
   * must match only where `regex` does (it is not tried where `regex` does not match).
   */
  fallback?: RegExp;
}

/** A value after a word for it, with `qualifier` allowed between a Latin word and its joiner. */
function afterWord(qualifier: string): RegExp {
  return new RegExp(
    `(?:(${LATIN_WORDS})${qualifier}${JOINER}|${LATIN_WORD_START}(${WORDS_THEN_SPACE.join('|')})[ \\t]+|(${WORDS_GLUED.join('|')})${JOINER_GLUED})["'\`“「]?${VALUE}`,
    'dgiu',
  );
}

export const PROSE_PATTERNS: ProsePattern[] = [
  // After a word for it: "the admin password is X", "FTP password: X", "set the password to X", "passwd X",
  // "비밀번호는 X", "パスワードをXに設定", "密码改为X", "PIN: 4821".
  {
    kind: 'password-in-prose',
    // Read with a qualifier and without: "password to server1: X" is the qualifier "to server1" and X, "password to
    // A=#b1" is "to" and `A=#b1`; where both read a value, both go.
    regex: afterWord(QUALIFIER),
    fallback: afterWord(''),
    // Not Unicode-aware and led by literals: several times faster than the pattern itself tried everywhere.
    anchor: /pass|\bpw|\bpin|contrase|senha|mot de passe|kennwort|пароль|wachtwoord|has[łl]o|parola|[şs]ifre|kata sandi|m[ậa]t kh|비밀|암호|패스워드|パスワード|暗証番号|密码|密碼|口令|पासवर्ड/gi,
    group: 4,
    accept: (m) => {
      const value = m[4]!;
      // A function's name called or indexed (`hash2(pw)`, `row2["pw"]`): code, not a value. (Member chains such as
      // `hashlib.sha256(` are names whatever follows; see IDENTIFIER.)
      if (/^[a-z_$][a-z0-9_$]*$/.test(value) && /[([]/.test(m.input?.[m.indices![4]![1]] ?? '')) return false;
      if (m[2] !== undefined) {
        // Only a space after `passwd`/`pwd`/`pw` (`passwd root` is the command): what a password has, all of it.
        return lettersAndDigits(value) && /[^A-Za-z0-9]|[a-z][^]*[A-Z]|[A-Z][^]*[a-z]/.test(value) && looksLikeSecret(value, false);
      }
      const word = (m[1] ?? m[3]!).toLowerCase();
      const joiner = m[0].slice(m.indices![m[1] !== undefined ? 1 : 3]![1] - m.index!, m.indices![4]![0] - m.index!);
      // "pass", "pw" and "PIN" are common words ("tests pass: 12", "must pass: `Idempotency-Key`", "pass to step2"):
      // a PIN is 4 to 8 digits after `:`, `=` or "is", a pass has letters and digits both.
      if (word === 'pin') return !/\bto\b/i.test(joiner) && /^[0-9]{4,8}$/.test(value);
      if (word === 'pass' || word === 'pw') return !/\bto\b/i.test(joiner) && lettersAndDigits(value) && looksLikeSecret(value, false);
      return looksLikeSecret(value, /^pin/.test(word) || /^[0-9]{6,}$/.test(value));
    },
  },
  // A quoted literal assigned to a variable or key that names it: `$pass = '…'`, `password="…"`, `"pwd": "…"`,
  // `$env:DB_PASSWORD = "…"`, `ftpPassword := "…"`. The name's start is a lookbehind, so the search starts at the
  // literal `pass`/`pw`/`pin` instead of at every identifier.
  {
    kind: 'password-assignment',
    regex:
      /(?<=(?<![A-Za-z0-9_$@:])([$@]?(?:env:)?[A-Za-z0-9_]{0,30}))(p(?:ass|wd|in|w)[A-Za-z0-9_]{0,30})["']?\s*(?:=|:=|:|=>)\s*(["'])((?:(?!\3)[^\n\\]|\\.){1,128})\3/dgi,
    group: 4,
    accept: (m) => {
      const name = `${m[1]!}${m[2]!}`.replace(/^[$@]?(?:env:)?/i, '');
      if (/^pwd$/i.test(name) && /^(?:\/|~|[A-Za-z]:\\)/.test(m[4]!)) return false; // the working directory
      return namesPassword(name) && isLiteral(m[4]!);
    },
  },
  // An unquoted shell or .env assignment: `DB_PASSWORD=…`, `export PGPASSWORD=…`, `set MYSQL_PWD=…`.
  {
    kind: 'password-assignment',
    regex: /(?<=(?<![A-Za-z0-9_$.-])([A-Za-z0-9_]{0,30}))(P(?:ASS|WD|IN|W)[A-Z0-9_]{0,30})=([^\s"'`;&|$<>()]{1,128})/dg,
    group: 3,
    accept: (m) => {
      const name = `${m[1]!}${m[2]!}`;
      return namesPassword(name) && name !== 'PWD' && name !== 'OLDPWD' && looksLikeSecret(m[3]!, true);
    },
  },
  // A parameter that names it: PowerShell `-Password …`, `--password=…`, `--passwd …`, `sshpass -p …`.
  {
    kind: 'password-assignment',
    // The value ends where the shell's word does (`>`, `|`, `;`, `&`): `--password=X>out.sh` is X.
    regex: /(?<![A-Za-z0-9_-])(?:--?(?:[A-Za-z]+-)*(?:password|passwd|passphrase|pass|pwd)|sshpass\s+-p)(?:=|\s+)(["']?)([^\s"'`<>|;&]{1,128})\1/dgi,
    group: 2,
    accept: (m) => isLiteral(m[2]!) && !/^-/.test(m[2]!) && looksLikeSecret(m[2]!, true),
  },
  // .NET credentials in scripts: `new NetworkCredential("user", "…")`, `ConvertTo-SecureString "…" -AsPlainText`.
  {
    kind: 'password-assignment',
    regex: /NetworkCredential\s*\(\s*[^,()]{1,80},\s*(["'])((?:(?!\1)[^\n\\]|\\.){1,128})\1/dg,
    group: 2,
    accept: (m) => isLiteral(m[2]!),
  },
  {
    kind: 'password-assignment',
    regex: /ConvertTo-SecureString\s+(?:-String\s+)?(["'])((?:(?!\1)[^\n]){1,128})\1\s+-AsPlainText/dgi,
    group: 2,
    accept: (m) => isLiteral(m[2]!),
  },
];

/**
 * Anchors of the prose patterns, for the prefilter: every string holding none is never scanned for them. Narrow
 * on purpose (`pass` only as a word or in `password`…; `pin` only as `PIN`-like words), since it widens the scan.
 */
export const PROSE_PREFILTER_SOURCES = [
  // `__Password__` in Markdown: the underscores close emphasis, though `\\b` sees no boundary before them.
  'pass(?:word|wd|phrase|code)?(?:\\b|_{1,3}(?![A-Za-z0-9]))', '\\bpwd\\b', 'pwd\\s*=', '\\bpw(?:\\s*[:=：]|[ \\t]+\\S)', '_pwd', '\\bpin(?: ?code)?\\s*(?:[:=]|is\\b)',
  '비밀\\s?번호', '암호', '패스워드', 'パスワード', '暗証番号', '密码', '密碼', '口令', 'contrase', 'senha',
  'mot de passe', 'passwort', 'kennwort', 'пароль', 'wachtwoord', 'has[łl]o', 'parola', '[şs]ifre', 'kata sandi',
  'm[ậa]t kh[ẩa]u', 'पासवर्ड', 'NetworkCredential', 'SecureString',
];
