import { celEnv, isCelError, parse, plan, type CelInput, type CelValue } from '@bufbuild/cel';
import { kubernetesCelFunctions } from './library.js';

type Program = (bindings: Record<string, CelInput>) => unknown;

const env = celEnv({ funcs: kubernetesCelFunctions() });
const programs = new Map<string, Program | Error>();

/** The outcome of evaluating one expression: a value, or an error message (compile or runtime). */
export type EvalOutcome = { ok: true; value: CelValue } | { ok: false; error: string; compile: boolean };

function compile(expr: string): Program | Error {
  let program = programs.get(expr);
  if (program === undefined) {
    try {
      program = plan(env, parse(expr)) as Program;
    } catch (e: unknown) {
      program = e instanceof Error ? e : new Error(String(e));
    }
    programs.set(expr, program);
  }
  return program;
}

/** Evaluates a CEL expression with the given bindings. Never throws. */
export function evaluate(expr: string, bindings: Record<string, CelInput>): EvalOutcome {
  const program = compile(expr);
  if (program instanceof Error) return { ok: false, error: program.message, compile: true };
  try {
    const value = program(bindings);
    if (isCelError(value)) return { ok: false, error: goMessage(value.message), compile: false };
    return { ok: true, value: value as CelValue };
  } catch (e: unknown) {
    return { ok: false, error: e instanceof Error ? e.message : String(e), compile: false };
  }
}

/** True when the expression refers to `oldSelf` (a transition rule). */
export function isTransitionRule(expr: string): boolean {
  // Kubernetes decides this from the compiled AST; an identifier match outside string literals is equivalent.
  const withoutStrings = expr.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, '""');
  return /(^|[^\w.])oldSelf\b/.test(withoutStrings);
}

// cel-go (which kube-apiserver embeds) words a missing field as "no such key"; users search for that text.
function goMessage(message: string): string {
  return message.replace(/^field not found: /, 'no such key: ');
}
