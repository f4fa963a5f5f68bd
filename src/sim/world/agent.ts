/** What every agent of the simulated world shares: one client, one clock, one seed, shared informers. */
import type { Clock } from '../../clock/index.js';
import type { KubeClient } from '../../kube/index.js';
import type { InformerSet } from './informers.js';
import type { Rng } from './random.js';

/** The context an agent is built with. */
export interface AgentContext {
  client: KubeClient;
  clock: Clock;
  informers: InformerSet;
  /** The agent's own random stream. */
  rng: Rng;
  /** Where agents report failures they recover from. */
  onError?: (agent: string, e: unknown) => void;
}

/** An independent component of the world. */
export interface Agent {
  /** The component's name (`kube-scheduler`, `kubelet-fleet`, …). */
  readonly name: string;
  /** Registers handlers and starts work; informers are started by the world afterwards. */
  start(): void;
  /** Stops all timers and work. */
  stop(): void;
}
