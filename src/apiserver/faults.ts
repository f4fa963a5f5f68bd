/** Fault injection for tests and the playground: error rates per verb and resource, latency, dropped watches. */
import { ApiError } from './status.js';

/**
 * The header of requests no fault touches: the scenario runner's own reads and writes (it observes the world;
 * the faults are for the agents in it).
 */
export const FaultExemptHeader = 'x-tenon-fault-exempt';

/** One fault rule: `rate` (0..1) of requests matching verb and resource fail with `code` (504: a timeout). */
export interface FaultRule {
  /** Verb (get, list, watch, create, update, patch, delete, deletecollection) or undefined for all. */
  verb?: string;
  /** Resource plural (optionally `plural/subresource`), or undefined for all. */
  resource?: string;
  code: 409 | 429 | 500 | 503 | 504;
  rate: number;
}

/** The fault-injection handle returned by startApiServer. */
export interface Faults {
  /** Adds an error rule; returns a function removing it. */
  addError(rule: FaultRule): () => void;
  /** Adds latency (ms) to every request. */
  setLatency(ms: number): void;
  /** Closes every open watch stream now. */
  dropWatches(): void;
  /** Closes each new watch after a random time up to `ms` (0 turns it off). */
  setWatchLifetime(ms: number): void;
  /** Removes every fault. */
  clear(): void;
}

/** The server side of fault injection. */
export class FaultInjector implements Faults {
  private rules: FaultRule[] = [];
  latencyMs = 0;
  watchLifetimeMs = 0;
  private readonly closers = new Set<() => void>();

  /** Uses `random` (0..1) for rates so tests can make them deterministic. */
  constructor(private readonly random: () => number = Math.random) {}

  /** Adds an error rule. */
  addError(rule: FaultRule): () => void {
    this.rules.push(rule);
    return () => {
      this.rules = this.rules.filter((r) => r !== rule);
    };
  }

  /** Sets added latency. */
  setLatency(ms: number): void {
    this.latencyMs = Math.max(0, ms);
  }

  /** Closes all watches. */
  dropWatches(): void {
    for (const close of [...this.closers]) close();
  }

  /** Sets the random watch lifetime bound. */
  setWatchLifetime(ms: number): void {
    this.watchLifetimeMs = Math.max(0, ms);
  }

  /** Removes all faults. */
  clear(): void {
    this.rules = [];
    this.latencyMs = 0;
    this.watchLifetimeMs = 0;
  }

  /** Registers an open watch's closer; returns its unregister function. */
  trackWatch(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /** A random lifetime for a new watch, or 0 for none. */
  watchLifetime(): number {
    return this.watchLifetimeMs > 0 ? Math.floor(this.random() * this.watchLifetimeMs) + 1 : 0;
  }

  /** Throws the injected failure for this request, if a rule fires. */
  check(verb: string, resource: string): void {
    for (const r of this.rules) {
      if (r.verb && r.verb !== verb) continue;
      if (r.resource && r.resource !== resource && r.resource !== resource.split('/')[0]) continue;
      if (this.random() < r.rate) throw injected(r.code);
    }
  }
}

function injected(code: FaultRule['code']): ApiError {
  switch (code) {
    case 409:
      return new ApiError(409, 'Conflict', 'Operation cannot be fulfilled: injected conflict (fault injection)');
    case 429:
      return new ApiError(
        429,
        'TooManyRequests',
        'the server has received too many requests and has asked us to try again later (fault injection)',
        { retryAfterSeconds: 1 },
      );
    case 504:
      return new ApiError(
        504,
        'Timeout',
        'the server was unable to return a response in the time allotted, but may still be processing the request (fault injection)',
      );
    case 503:
      return new ApiError(
        503,
        'ServiceUnavailable',
        'the server is currently unable to handle the request (fault injection)',
      );
    default:
      return new ApiError(
        500,
        'InternalError',
        'an error on the server ("injected fault") has prevented the request from succeeding',
      );
  }
}
