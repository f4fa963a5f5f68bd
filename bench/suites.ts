/** A benchmark suite takes its command-line flags and prints a table, or JSON lines with --json. */
import { apiserverSuite } from './apiserver/apiserver-suite.js';
import { burstSuite } from './burst/suite.js';
import { consolidationSuite } from './consolidation/consolidation-suite.js';
import { explainSuite } from './explain/suite.js';
import { idleSuite } from './idle/suite.js';
import { peerSuite } from './peer/peer-suite.js';
import { playgroundSuite } from './playground/suite.js';
import { provisioningSuite } from './provisioning/suite.js';
import { costSuite } from './scheduling/cost-suite.js';
import { schedulingSuite } from './scheduling/scheduling-suite.js';

/** A suite. */
export type Suite = (args: string[]) => Promise<void>;

/** Every suite by name; add one line per suite. */
export const suites: Record<string, Suite> = {
  scheduling: schedulingSuite,
  cost: costSuite,
  provisioning: provisioningSuite,
  apiserver: apiserverSuite,
  playground: playgroundSuite,
  consolidation: consolidationSuite,
  peer: peerSuite,
  explain: explainSuite,
  idle: idleSuite,
  burst: burstSuite,
};
