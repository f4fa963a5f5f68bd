/**
 * One life of the playground's controller process. Everything the controllers reach the world through (the API
 * transport, the simulated EC2 account, the interruption queue, the clock's timers) passes through it, so the
 * process can be killed as SIGKILL kills it: at whatever await it stands, nothing it started ever resumes, no
 * answer reaches it, no timer of it fires, and what it had in memory is gone. A kill may land on a chosen call
 * (mid-launch, mid-drain …), which then reaches the server or not.
 */
import type { Clock } from '../../clock/index.js';
import type { Transport, TransportRequest } from '../../kube/index.js';
import type { RunningOperator } from '../../operator/operator.js';
import type { AwsCloudProvider } from '../../providers/aws/index.js';

/** One life of the controller process: its gates, its operator and its cloud provider. */
export interface OperatorLife {
  life: ControllerProcess;
  operator: RunningOperator;
  provider: AwsCloudProvider;
}

/** Runs what it is given one at a time, in order (a failure does not stop the ones after it). */
export function oneAtATime(): <T>(f: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(f: () => Promise<T>): Promise<T> => {
    const run = last.then(f, f);
    last = run.catch(() => undefined);
    return run;
  };
}

/** A call the controllers make to the outside world. */
export interface ControllerCall {
  /** Which API: the Kubernetes API server, EC2 (and the other AWS APIs the provider uses), or the SQS queue. */
  api: 'kube' | 'aws' | 'sqs';
  /** The HTTP method for kube, the operation (`createFleet`, `terminateInstances`, `receive` …) otherwise. */
  verb: string;
  /** The request path for kube; empty otherwise. */
  path: string;
}

/** When and how a kill lands. */
export interface KillPoint {
  /** The kill lands on the first call this matches (once `skip` matching calls have gone by). */
  match: (call: ControllerCall) => boolean;
  /** Matching calls let through before the one the kill lands on (default 0). */
  skip?: number;
  /** Whether the call the kill lands on still reaches the server or EC2 (its answer is lost either way). */
  delivered?: boolean;
}

/** A promise that never settles: where a killed process's awaits stay forever. */
function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}

/** The gates of one controller process; see the module comment. */
export class ControllerProcess {
  private dead = false;
  private armed: (KillPoint & { left: number }) | undefined;
  private landedOn: ControllerCall | undefined;
  private readonly timers = new Set<() => void>();
  private readonly streams = new Set<AbortController>();
  private readonly killedWaiters: Array<() => void> = [];

  /** True once killed. */
  get killed(): boolean {
    return this.dead;
  }

  /** Kills the process now. */
  kill(): void {
    if (this.dead) return;
    this.dead = true;
    this.armed = undefined;
    for (const cancel of this.timers) cancel();
    this.timers.clear();
    for (const s of this.streams) s.abort();
    this.streams.clear();
    for (const w of this.killedWaiters.splice(0)) w();
  }

  /**
   * Kills the process on the call `point` names; resolves once it is dead, with that call (undefined when it died
   * otherwise first).
   */
  async killAt(point: KillPoint): Promise<ControllerCall | undefined> {
    if (!this.dead) this.armed = { ...point, left: point.skip ?? 0 };
    await this.whenKilled();
    return this.landedOn;
  }

  /** Resolves once the process is dead. */
  whenKilled(): Promise<void> {
    return this.dead ? Promise.resolve() : new Promise((resolve) => this.killedWaiters.push(resolve));
  }

  /**
   * Runs `send` for `call` unless the process is dead (or dies on this call and the call is not delivered);
   * its answer reaches the caller only while the process lives.
   */
  private gate<T>(call: ControllerCall, send: () => Promise<T>): Promise<T> {
    if (this.dead) return never();
    const a = this.armed;
    if (a?.match(call) && a.left-- <= 0) {
      if (a.delivered) void send().catch(() => undefined);
      this.landedOn = call;
      this.kill();
      return never();
    }
    return new Promise<T>((resolve, reject) => {
      send().then(
        (v) => {
          if (!this.dead) resolve(v);
        },
        (e: unknown) => {
          if (!this.dead) reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });
  }

  /** The API transport as this process sees it. */
  transport(inner: Transport): Transport {
    const call = (req: TransportRequest): ControllerCall => ({ api: 'kube', verb: req.method, path: req.path });
    return {
      request: (req) => this.gate(call(req), () => inner.request(req)),
      stream: (req) => {
        if (this.dead) return never();
        // The watch ends with the process: its connection closes, and no line reaches a dead process.
        const abort = new AbortController();
        const onAbort = (): void => abort.abort();
        req.signal.addEventListener('abort', onAbort, { once: true });
        this.streams.add(abort);
        return this.gate(call(req), () =>
          inner
            .stream({
              ...req,
              signal: abort.signal,
              onLine: (line) => {
                if (!this.dead) req.onLine(line);
              },
            })
            .finally(() => {
              this.streams.delete(abort);
              req.signal.removeEventListener('abort', onAbort);
            }),
        );
      },
    };
  }

  /** The clock as this process sees it: a dead process's timers never fire. */
  clock(inner: Clock): Clock {
    return {
      now: () => inner.now(),
      setTimer: (ms, fn) => {
        if (this.dead) return () => undefined;
        const cancel = inner.setTimer(ms, () => {
          this.timers.delete(cancel);
          if (!this.dead) fn();
        });
        this.timers.add(cancel);
        return () => {
          this.timers.delete(cancel);
          cancel();
        };
      },
    };
  }

  /**
   * `port` (an AWS port, the SQS queue) as this process sees it: every method that returns a promise goes through
   * the gate; other members read through.
   */
  port<T extends object>(port: T, api: ControllerCall['api']): T {
    return new Proxy(port, {
      get: (target, prop, receiver) => {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        const method = value as (...args: unknown[]) => unknown;
        return (...args: unknown[]): unknown =>
          this.gate({ api, verb: prop, path: '' }, () => {
            try {
              return Promise.resolve(method.apply(target, args));
            } catch (e) {
              return Promise.reject(e instanceof Error ? e : new Error(String(e)));
            }
          });
      },
    });
  }
}
