import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { apiUses } from './api-usage.js';

const root = process.cwd();
const chart = join(root, 'charts/tenon');

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
}

/** `group/resource verb` for every grant of the rules. */
function grants(rules: Rule[]): string[] {
  return rules.flatMap((r) =>
    (r.apiGroups ?? []).flatMap((g) =>
      (r.resources ?? []).flatMap((res) => (r.verbs ?? []).map((v) => `${g}/${res} ${v}`)),
    ),
  );
}

/** The rules of a template, its `{{ }}` actions replaced by a placeholder so the YAML parses. */
function templateRules(file: string): Rule[] {
  const text = readFileSync(join(chart, 'templates', file), 'utf8')
    .replace(/^\s*\{\{-.*\}\}\s*$/gm, '')
    .replace(/\{\{[^}]*\}\}/g, 'x');
  return parseAllDocuments(text).flatMap((d) => (d.toJS() as { rules?: Rule[] } | null)?.rules ?? []);
}

describe("the chart's RBAC", () => {
  const used = apiUses(root).map((u) => `${u.resource} ${u.verb}`);
  const clusterRules = parseAllDocuments(
    readFileSync(join(chart, 'rbac/cluster-rules.yaml'), 'utf8'),
  )[0]?.toJS() as Rule[];
  const granted = [...grants(clusterRules), ...grants(templateRules('role.yaml'))];

  it('grants every call the controllers make', () => {
    expect(used.filter((u) => !granted.includes(u))).toEqual([]);
  });

  it('grants nothing the controllers do not call (least privilege)', () => {
    expect(granted.filter((g) => !used.includes(g))).toEqual([]);
  });

  it('lets the replicas read and renew only their own Lease', () => {
    const named = templateRules('role.yaml').filter((r) => r.resourceNames);
    expect(named.flatMap((r) => r.verbs)).toEqual(['get', 'update']);
  });
});
