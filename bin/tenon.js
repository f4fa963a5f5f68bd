#!/usr/bin/env node
// Runs the CLI from the build in dist/ when it is at least as new as every source file (`npm start` and
// `npm run tenon` build it); otherwise from the TypeScript sources through tsx, so `npx tenon` needs no build
// step. The build is leaner: tsx loads modules through a loader thread of its own (about 110 MB of RSS).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist/src/cli/main.js`;

function buildIsFresh() {
  if (!existsSync(built)) return false;
  const builtAt = statSync(built).mtimeMs;
  for (const f of readdirSync(`${root}src`, { recursive: true })) {
    if (String(f).endsWith('.ts') && statSync(`${root}src/${f}`).mtimeMs > builtAt) return false;
  }
  return true;
}

if (buildIsFresh()) {
  await import(built);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
