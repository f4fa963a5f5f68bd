import { apiserverSuite } from './apiserver/apiserver-suite.js';

/** A benchmark suite takes its command-line flags and prints a table, or JSON lines with --json. */
export type Suite = (args: string[]) => Promise<void>;

/** Every suite by name; add one line per suite. */
export const suites: Record<string, Suite> = {
  apiserver: apiserverSuite,
};
