/** One-line, human descriptions of commands for events and logs. */
import type { Command } from '../types.js';

function money(n: number): string {
  return `$${n.toFixed(4)}/h`;
}

/** "delete 2 nodes (a, b) and replace with 1 m5.large, saving $0.1000/h", without the method. */
export function describeAction(cmd: Command): string {
  const names = cmd.candidates.map((c) => c.node.name);
  const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')}, …` : names.join(', ');
  const what = `delete ${names.length} node${names.length === 1 ? '' : 's'} (${shown})`;
  const repl = cmd.replacements.length
    ? ` and replace with ${cmd.replacements.map((r) => r.cheapest.instanceType || r.instanceTypeOptions[0] || 'a node').join(', ')}`
    : '';
  const saving = cmd.costBefore - cmd.costAfter;
  return `${what}${repl}${cmd.reason === 'Drifted' ? '' : `, saving ${money(saving)}`}`;
}

/** "multi-node consolidation: delete 2 nodes (a, b) and replace with 1 m5.large, saving $0.1000/h", plus why Tenon preferred it when it did. */
export function describe(cmd: Command): string {
  const instead = cmd.preferredOver ? ` (instead of ${cmd.preferredOver})` : '';
  return `${cmd.method}: ${describeAction(cmd)}${instead}`;
}
