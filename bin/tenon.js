#!/usr/bin/env node
// Runs the CLI from the JavaScript build in dist/. A published package carries that build (`npm pack` runs
// scripts/build.mjs first); in a checkout whose sources are newer than the build, it is rebuilt with esbuild (a
// devDependency, about a second) before running. TypeScript is never run through tsx here: tsx is a
// devDependency, and a loader thread costs every process about 110 MB. See docs/adr/0022-cli-entry-points.md.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist/src/cli/main.js`;
const sources = `${root}src`;
const lock = `${root}dist.building`;

/** True when the build exists and no source is newer (a package without sources runs its build as it is). */
function buildIsFresh() {
  if (!existsSync(built)) return false;
  if (!existsSync(sources)) return true;
  const builtAt = statSync(built).mtimeMs;
  for (const f of readdirSync(sources, { recursive: true })) {
    if (String(f).endsWith('.ts') && statSync(`${sources}/${f}`).mtimeMs > builtAt) return false;
  }
  return true;
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** Rebuilds dist/ once, however many tenon processes start at the same moment (a lock directory serialises them). */
async function rebuild() {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another process is building; a lock left by a crashed one is taken over after a minute.
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 60_000)
        rmSync(lock, { recursive: true, force: true });
      await pause(100);
      if (buildIsFresh()) return;
    }
  }
  try {
    if (!buildIsFresh()) await import(pathToFileURL(`${root}scripts/build.mjs`).href);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (!buildIsFresh()) {
  try {
    await rebuild();
  } catch (e) {
    const missing = e && typeof e === 'object' && 'code' in e && e.code === 'ERR_MODULE_NOT_FOUND';
    process.stderr.write(
      missing
        ? 'tenon: dist/ is missing or older than src/, and esbuild is not installed to rebuild it: run `npm ci`, then `npm run build:dist`\n'
        : `tenon: rebuilding dist/ failed: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    process.exit(1);
  }
}
await import(pathToFileURL(built).href);
