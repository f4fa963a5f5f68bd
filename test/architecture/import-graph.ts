import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { layerRules, type LayerRule } from './layer-rules.js';

/** One import found in a source file. */
export interface ImportEdge {
  file: string;
  specifier: string;
}

/** A broken layer rule. */
export interface LayerViolation {
  file: string;
  specifier: string;
  rule: string;
}

const importPattern =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** Every module specifier a TypeScript source text imports or re-exports. */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(importPattern)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec) found.push(spec);
  }
  return found;
}

/** The layer (first folder under src/) a path belongs to, or undefined outside src/. */
export function layerOf(srcRoot: string, path: string): string | undefined {
  const rel = relative(srcRoot, path);
  if (rel.startsWith('..')) return undefined;
  const first = rel.split(/[\\/]/)[0];
  return first && !first.endsWith('.ts') ? first : undefined;
}

function violationFor(rule: LayerRule, target: { layer?: string; module?: string }): boolean {
  if (target.layer !== undefined && target.layer !== rule.layer) {
    if (rule.forbiddenLayers.includes(target.layer)) return true;
    if (rule.onlyLayers && !rule.onlyLayers.includes(target.layer)) return true;
  }
  if (target.module !== undefined && rule.forbiddenModules) {
    const bare = target.module.replace(/^node:/, '');
    return rule.forbiddenModules.includes(bare);
  }
  return false;
}

/** Checks one file's imports against the rules; `file` must be under `srcRoot`. */
export function checkFile(srcRoot: string, file: string, text: string): LayerViolation[] {
  const layer = layerOf(srcRoot, file);
  const rule = layerRules.find((r) => r.layer === layer);
  if (!rule) return [];
  const out: LayerViolation[] = [];
  for (const spec of importsOf(text)) {
    const target = spec.startsWith('.') ? { layer: layerOf(srcRoot, resolve(dirname(file), spec)) } : { module: spec };
    if (violationFor(rule, target)) out.push({ file: relative(srcRoot, file), specifier: spec, rule: rule.why });
  }
  return out;
}

/** Lists the non-test TypeScript sources under a folder. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** The production sources of the given layers: no tests, no fixtures kept beside the code (`testing/` folders). */
export function productionSources(srcRoot: string, layers: readonly string[]): string[] {
  return layers.flatMap((layer) => sourceFiles(join(srcRoot, layer))).filter((f) => !f.split(sep).includes('testing'));
}

/** Checks every source file under srcRoot. */
export function checkTree(srcRoot: string): LayerViolation[] {
  return sourceFiles(srcRoot).flatMap((f) => checkFile(srcRoot, f, readFileSync(f, 'utf8')));
}

const staticPattern =
  /(?:^|[\s;])(?:import|export)\s(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]/gm;

/** The relative modules a file loads when it loads (static imports and re-exports; not `import type`, not `import()`). */
export function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(staticPattern)) {
      const spec = m[1] ?? m[2];
      if (spec?.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
    }
  };
  visit(entry);
  return seen;
}
