/** The text and JSON forms `tenon explain` prints. */
import type { Explanation } from './model.js';

/** Human text: the cause line, the fix line, then one detail line each. */
export function formatText(e: Explanation): string {
  const lines = [`${e.kind} ${e.name}: ${e.state}`, e.summary];
  if (e.fix) lines.push(`fix: ${e.fix}`);
  for (const d of e.details) lines.push(`  - ${d}`);
  return `${lines.join('\n')}\n`;
}

/** The JSON tools read: kind, name, state, summary, cause {constraint, object, numbers, message}, fix, details. */
export function formatJson(e: Explanation): string {
  return `${JSON.stringify({ kind: e.kind, name: e.name, state: e.state, summary: e.summary, explained: e.explained, cause: e.cause ?? null, fix: e.fix ?? null, details: e.details }, null, 2)}\n`;
}
