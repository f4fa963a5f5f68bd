import { parse, type ParseEntry } from 'shell-quote';

/** A word or operator from shell-style splitting; variable references are kept as markers inside words. */
export type ShellToken = string | { op: string } | { comment: string } | { pattern: string };

/** One logical line of a script (backslash continuations joined, heredoc bodies skipped). */
export interface LogicalLine {
  text: string;
  /** 1-based first physical line. */
  line: number;
  /** 1-based last physical line (continuations included). */
  endLine: number;
}

/** One simple command found in a script. */
export interface ShellCommand {
  /** Words with known variables substituted and unknown ones written back as `${NAME}`. */
  words: string[];
  /** 1-based physical line where the command's logical line starts. */
  line: number;
  /** Index of the logical line in the script's logical lines. */
  lineIndex: number;
  /** Range of this command's tokens within the line's tokens. */
  start: number;
  end: number;
}

const varOpen = '\uE000';
const varClose = '\uE001';

/** Joins continuation lines and skips heredoc bodies, which the shell does not run as commands. */
export function logicalLines(script: string): LogicalLine[] {
  const physical = script.replace(/\r\n/g, '\n').split('\n');
  const out: LogicalLine[] = [];
  let i = 0;
  while (i < physical.length) {
    const start = i;
    let text = physical[i] ?? '';
    while (/(^|[^\\])(\\\\)*\\$/.test(text) && i + 1 < physical.length) {
      i += 1;
      text = text.slice(0, -1) + (physical[i] ?? '');
    }
    out.push({ text, line: start + 1, endLine: i + 1 });
    i = skipHeredoc(physical, text, i + 1);
  }
  return out;
}

function skipHeredoc(physical: readonly string[], text: string, next: number): number {
  const m = /(?<!<)<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/.exec(text);
  if (!m || text.trimStart().startsWith('#')) return next;
  const tag = m[3] ?? '';
  const dash = m[1] === '-';
  for (let j = next; j < physical.length; j++) {
    const l = physical[j] ?? '';
    if ((dash ? l.replace(/^\t+/, '') : l) === tag) return j + 1;
  }
  return physical.length;
}

/** Splits one logical line into tokens like a shell would (via shell-quote). Never throws. */
export function tokenize(text: string): ShellToken[] {
  try {
    const entries = parse(text, (key: string) => `${varOpen}${key}${varClose}`) as ParseEntry[];
    return entries.map((e) => {
      if (typeof e === 'string') return e;
      if ('comment' in e) return { comment: e.comment };
      if (e.op === 'glob') return { pattern: (e as { pattern: string }).pattern };
      return { op: e.op };
    });
  } catch {
    return [];
  }
}

/** Replaces variable markers with values from `vars`; unknown ones are written as `${NAME}`. */
export function resolveWord(word: string, vars: Readonly<Record<string, string>>): string {
  return word.replace(/\uE000([^\uE001]*)\uE001/g, (_m, name: string) => vars[name] ?? `\${${name}}`);
}

/** POSIX single quoting: everything literal; an embedded `'` becomes `'\''`. */
export function singleQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

function literal(text: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(text) ? text : singleQuote(text);
}

/** Quotes a token back into shell text, keeping variable references live (`"${NAME}"`). */
export function quoteWord(word: string): string {
  if (word === '') return "''";
  const pieces = word.split(/(\uE000[^\uE001]*\uE001)/).filter((p) => p !== '');
  return pieces.map((p) => (p.startsWith(varOpen) ? `"\${${p.slice(1, -1)}}"` : literal(p))).join('');
}

/** Writes tokens back as one shell line. */
export function serializeTokens(tokens: readonly ShellToken[]): string {
  return tokens
    .map((t) => {
      if (typeof t === 'string') return quoteWord(t);
      if ('op' in t) return t.op;
      if ('pattern' in t) return t.pattern;
      return `#${t.comment}`;
    })
    .join(' ');
}

const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Every simple command in the script, in order, with simple `NAME=value` assignments substituted. */
export function findCommands(script: string): {
  commands: ShellCommand[];
  lines: LogicalLine[];
  tokens: ShellToken[][];
} {
  const lines = logicalLines(script);
  const vars: Record<string, string> = {};
  const commands: ShellCommand[] = [];
  const tokens = lines.map((l) => tokenize(l.text));
  tokens.forEach((lineTokens, lineIndex) => {
    let start = 0;
    for (let i = 0; i <= lineTokens.length; i++) {
      const t = lineTokens[i];
      if (i < lineTokens.length && typeof t === 'string') continue;
      const words = lineTokens.slice(start, i).filter((w): w is string => typeof w === 'string');
      const line = lines[lineIndex]?.line ?? 1;
      if (words.length > 0) recordCommand({ words, vars, commands, at: { line, lineIndex, start, end: i } });
      start = i + 1;
    }
  });
  return { commands, lines, tokens };
}

interface RecordArgs {
  words: string[];
  vars: Record<string, string>;
  commands: ShellCommand[];
  at: { line: number; lineIndex: number; start: number; end: number };
}

function recordCommand({ words, vars, commands, at }: RecordArgs): void {
  const resolved = words.map((w) => resolveWord(w, vars));
  const rest = resolved[0] === 'export' ? resolved.slice(1) : resolved;
  if (rest.length > 0 && rest.every((w) => assignment.test(w))) {
    for (const w of rest) {
      const eq = w.indexOf('=');
      vars[w.slice(0, eq)] = w.slice(eq + 1);
    }
    return;
  }
  commands.push({ words: resolved, ...at });
}

const wrappers: ReadonlySet<string> = new Set(['sudo', 'exec', 'bash', 'sh', 'env', 'time', 'nohup', 'command']);

/** Index of the program word in a command (after env assignments and wrappers like sudo or bash). */
export function programIndex(words: readonly string[]): number {
  let i = 0;
  while (i < words.length) {
    const w = words[i] ?? '';
    if (assignment.test(w) || wrappers.has(w) || (w.startsWith('-') && i > 0)) i += 1;
    else return i;
  }
  return -1;
}
