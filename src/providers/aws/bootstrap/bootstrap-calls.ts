import { isBootstrapScript, parseBootstrapArgs, type BootstrapArgs } from './bootstrap-sh.js';
import type { MimePart } from './mime.js';
import { findCommands, programIndex, tokenize, type LogicalLine, type ShellToken } from './shell-script.js';

/** One `/etc/eks/bootstrap.sh` invocation found in a shell part. */
export interface BootstrapCall {
  /** 0-based MIME part index. */
  part: number;
  /** 1-based line within the part. */
  line: number;
  /** Words with variables resolved. */
  words: string[];
  /** Index of the script word in `words`. */
  program: number;
  args: BootstrapArgs;
  /** Where the command sits, for rewriting. */
  site: { lineIndex: number; start: number; end: number; lines: LogicalLine[]; tokens: ShellToken[][] };
}

/** True for parts that run as shell scripts (cloud-init runs `text/x-shellscript`, and `#!` scripts). */
export function isShellPart(part: MimePart): boolean {
  return /^text\/x-shellscript/i.test(part.contentType) || part.content.trimStart().startsWith('#!');
}

/** Every bootstrap.sh invocation in the shell parts, in the order cloud-init runs them. */
export function findBootstrapCalls(parts: readonly MimePart[]): BootstrapCall[] {
  const out: BootstrapCall[] = [];
  parts.forEach((part, index) => {
    if (!isShellPart(part)) return;
    const { commands, lines, tokens } = findCommands(part.content);
    for (const c of commands) {
      const program = programIndex(c.words);
      if (program < 0 || !isBootstrapScript(c.words[program] ?? '')) continue;
      out.push({
        part: index,
        line: c.line,
        words: c.words,
        program,
        args: parseBootstrapArgs(c.words.slice(program + 1)),
        site: { lineIndex: c.lineIndex, start: c.start, end: c.end, lines, tokens },
      });
    }
  });
  return out;
}

/** Splits a KUBELET_EXTRA_ARGS value into words as systemd does for `$KUBELET_EXTRA_ARGS` (quotes removed). */
export function splitExtraArgs(value: string): string[] {
  return tokenize(value).filter((t): t is string => typeof t === 'string');
}
