/**
 * What a server with saved state (`--state FILE`) keeps beside it, in `FILE.credentials` (0600): its CA and
 * serving certificate, the bearer token and the port. A restart serves the same address with the same identity,
 * so a kubeconfig written before it, and the clients and controllers holding one, keep working.
 */
import fs from 'node:fs';
import { isJson } from '../types.js';
import type { ServingCerts } from './tls.js';

/** The identity of a server, as kept across restarts. */
export interface SavedCredentials extends ServingCerts {
  token: string;
  /** The port last served on (0 before the first start). */
  port: number;
}

/** The credentials file that goes with a state file. */
export function credentialsFileOf(stateFile: string): string {
  return `${stateFile}.credentials`;
}

/** The credentials kept in `file`, or undefined when there are none; throws naming the file when it is unreadable. */
export function readCredentials(file: string): SavedCredentials | undefined {
  if (!fs.existsSync(file)) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e: unknown) {
    throw new Error(`${file}: not JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  const strings = ['caPem', 'certPem', 'keyPem', 'token'] as const;
  if (!isJson(v) || strings.some((k) => typeof v[k] !== 'string') || typeof v.port !== 'number')
    throw new Error(`${file}: expected caPem, certPem, keyPem, token (strings) and port (a number)`);
  return v as unknown as SavedCredentials;
}

/** Writes the credentials, readable by the owner only, atomically (a crash leaves the old ones). */
export function writeCredentials(file: string, c: SavedCredentials): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(c)}\n`, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}
