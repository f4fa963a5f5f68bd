/**
 * Runs a scenario on a fresh playground: each step in order on simulated time, sampling the world as time
 * passes, and reports expectations, samples, Events, launches and cost. The first failed expectation (or wait
 * that timed out) ends the run.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Logger } from '../../observability/logger.js';
import { parseDuration } from '../../settings/duration.js';
import { defaultOptions } from '../../settings/options.js';
import { startPlayground, type Playground, type PlaygroundOptions } from '../playground/playground.js';
import type { ExpectationResult, RunReport, Sample, StepMark } from '../report/run-report.js';
import { applyObjects, deleteObject, parseManifests, scaleObject } from './apply.js';
import { describeExpectation, evaluate, type Outcome } from './expectations.js';
import { faultNeedsEmbeddedServer, injectFault } from './faults.js';
import type { Expectation, Scenario, Step, WaitStep } from './format.js';
import { cloudView, launches, sample, timeline } from './observe.js';
import type { CloudView } from './fewest-per-zone.js';
import { findUnexplainedWaits } from '../report/unexplained-waits.js';
import { addCapacityReservations } from './world-setup.js';
import { describeWaiting, nothingWaiting } from './waiting-on.js';

/** Options of a run. */
export interface RunScenarioOptions {
  /** Overrides the scenario's seed. */
  seed?: number;
  /** Directory `apply: {file}` paths are relative to. */
  baseDir?: string;
  log?: Logger;
  /** Called after every sample (for live progress). */
  onProgress?: (p: { sample: Sample; step: number; steps: number; text: string }) => void;
  /** How the playground's clients reach its API server (see PlaygroundOptions.apiTransport). */
  apiTransport?: PlaygroundOptions['apiTransport'];
  /** Run against this existing cluster instead of the embedded API server (see PlaygroundOptions.cluster). */
  cluster?: PlaygroundOptions['cluster'];
  /**
   * Simulated ms per wall ms when attached to a cluster (default 30): the cluster's own scheduler and
   * controllers run on the wall clock, so simulated time may only run ahead of it this much faster.
   */
  clusterPace?: number;
  /**
   * Simulated ms per wall ms when attached and nothing is waiting (default 4 × clusterPace): every pod running,
   * every NodeClaim and node Ready, every kubelet up, and no write of the run's own in the last 2 s of wall time.
   * Then the cluster owes the run nothing, and an `advance` or a wait for Tenon's own timers need not take the
   * cluster's pace.
   */
  clusterQuietPace?: number;
  /** Ends the run early: the report's error says what it was waiting on (pods, NodeClaims, nodes, requests). */
  signal?: AbortSignal;
  /**
   * Called with what the run waits on whenever simulated time has not moved for `stallMs` of wall time (default
   * 60 s), so a run that hangs says why while it hangs.
   */
  onStall?: (text: string) => void;
  stallMs?: number;
}

/** Simulated ms per wall ms of an attached run. */
function clusterPace(o: RunScenarioOptions): number {
  return o.clusterPace ?? 30;
}

/** Simulated ms per wall ms of an attached run while nothing is waiting (see clusterQuietPace). */
function quietPace(o: RunScenarioOptions): number {
  return o.clusterQuietPace ?? 4 * clusterPace(o);
}

/** Wall time after the run's own write (apply, scale, delete, fault) before the cluster can be taken as settled. */
const settleAfterWriteMs = 2_000;

/**
 * The operator's settings of an attached run: the provisioning batch windows measured in the cluster's wall time.
 * The cluster's controllers make pods at their wall-clock pace (a StatefulSet of 100 takes seconds), as they would
 * for Karpenter; windows of simulated time, 30 times shorter in wall time, would cut that stream into dozens of
 * batches, each launching its own nodes.
 */
function attachedOptions(o: RunScenarioOptions): PlaygroundOptions['options'] {
  if (!o.cluster) return undefined;
  const pace = clusterPace(o);
  return {
    batchIdleDuration: defaultOptions.batchIdleDuration * pace,
    batchMaxDuration: defaultOptions.batchMaxDuration * pace,
  };
}

/**
 * Where an attached run starts its simulated clock: the next midnight UTC, the time of day an embedded run starts at
 * (2026-01-01T00:00Z), so a scenario's schedules (a budget `@daily` for 23h) hold at the same simulated hours
 * wherever and whenever it runs. The simulated clock runs ahead of the cluster's wall clock in an attached run anyway
 * (ADR 0039).
 */
export function attachedRunStart(nowMs: number): number {
  const day = 86_400_000;
  return Math.ceil(nowMs / day) * day;
}

/** Why a scenario cannot run against an attached cluster (undefined when it can). */
export function clusterSkipReason(s: Scenario): string | undefined {
  for (const step of s.steps) {
    const reason = 'fault' in step ? faultNeedsEmbeddedServer(step.fault) : undefined;
    if (reason) return reason;
  }
  return undefined;
}

/** Simulated time moves in slices this long between looks at the world. */
const sliceMs = 5_000;
/** A sample is taken at least this often (simulated). */
const sampleEveryMs = 10_000;

class Run {
  readonly samples: Sample[] = [];
  readonly expectations: ExpectationResult[] = [];
  readonly steps: StepMark[] = [];
  allRunning: RunReport['allRunning'];
  private lastSample = Number.NEGATIVE_INFINITY;
  private lastWrite = Number.NEGATIVE_INFINITY;
  private step = 0;
  private text = '';
  private cloud: CloudView | undefined;

  readonly t0: number;

  constructor(
    readonly pg: Playground,
    readonly wall0: number,
    private readonly o: RunScenarioOptions & { steps: number },
  ) {
    this.t0 = pg.clock.now();
  }

  at(step: number, text: string, label: string): void {
    this.step = step;
    this.text = text;
    this.steps.push({ step, t: (this.pg.clock.now() - this.t0) / 1000, label });
  }

  /** Which step the run is at, and for how long it has run (simulated and wall). */
  where(): string {
    const sim = ((this.pg.clock.now() - this.t0) / 1000).toFixed(0);
    const wall = ((performance.now() - this.wall0) / 1000).toFixed(0);
    return `step ${this.step} (${this.steps.at(-1)?.label ?? 'start'}) at ${sim} s simulated, ${wall} s wall`;
  }

  async look(force = false): Promise<void> {
    const now = this.pg.clock.now();
    if (!force && now - this.lastSample < sampleEveryMs) return;
    this.lastSample = now;
    const s = sample(this.pg, this.t0);
    this.samples.push(s);
    if (!this.allRunning && s.podsRunning > 0 && s.podsPending === 0)
      this.allRunning = { simSeconds: s.t, wallSeconds: (performance.now() - this.wall0) / 1000 };
    this.o.onProgress?.({ sample: s, step: this.step, steps: this.o.steps, text: this.text });
  }

  /** Notes a write of the run's own: the cluster's controllers answer it on the wall clock. */
  wrote(): void {
    this.lastWrite = performance.now();
  }

  /** Simulated ms per wall ms of the next slice of an attached run. */
  private pace(): number {
    const settled = performance.now() - this.lastWrite >= settleAfterWriteMs && nothingWaiting(this.pg);
    return settled ? quietPace(this.o) : clusterPace(this.o);
  }

  async pass(ms: number): Promise<void> {
    const target = this.pg.clock.now() + ms;
    while (this.pg.clock.now() < target) {
      const slice = Math.min(sliceMs, target - this.pg.clock.now());
      const started = performance.now();
      const pace = this.o.cluster ? this.pace() : 0;
      await this.pg.clock.advance(slice);
      // An attached cluster's components act on the wall clock: each slice lasts at least its share of wall time
      // (a slice whose own work took longer already gave them that).
      const rest = this.o.cluster ? slice / pace - (performance.now() - started) : 0;
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
      await this.look();
    }
  }

  check(e: Expectation): Promise<Outcome> {
    return evaluate({ client: this.pg.observer.client, cloud: (this.cloud ??= cloudView(this.pg)) }, e);
  }

  record(step: number, description: string, o: Outcome): boolean {
    this.expectations.push({ step, description, passed: o.passed, observed: o.observed });
    return o.passed;
  }
}

function duration(text: string): number {
  return parseDuration(text) ?? 0;
}

function stepText(step: Step): string {
  const [kind] = Object.keys(step);
  return kind ?? 'step';
}

/** A step in a few words, for the marks on the report's charts. */
function stepLabel(step: Step): string {
  if ('apply' in step) return typeof step.apply === 'string' ? 'apply' : `apply ${basename(step.apply.file)}`;
  if ('delete' in step) return `delete ${step.delete.kind}/${step.delete.name}`;
  if ('scale' in step) return `scale ${step.scale.kind}/${step.scale.name} to ${step.scale.replicas}`;
  if ('advance' in step) return `advance ${step.advance}`;
  if ('wait' in step) return `wait: ${describeExpectation(step.wait.for)}`;
  if ('fault' in step) return `fault: ${Object.keys(step.fault)[0] ?? ''}`;
  return `expect: ${describeExpectation(step.expect)}`;
}

async function wait(run: Run, i: number, w: WaitStep): Promise<boolean> {
  const deadline = run.pg.clock.now() + duration(w.timeout);
  const waited = (): string => ((run.pg.clock.now() - (deadline - duration(w.timeout))) / 1000).toFixed(0);
  for (;;) {
    if (w.while) {
      const held = await run.check(w.while);
      if (!held.passed)
        return run.record(i, `while waiting ≤ ${w.timeout}: ${describeExpectation(w.while)}`, {
          passed: false,
          observed: `${held.observed} after ${waited()} s`,
        });
    }
    const o = await run.check(w.for);
    const late = run.pg.clock.now() >= deadline;
    if (o.passed || late) {
      const during = w.while ? ` (throughout: ${describeExpectation(w.while)})` : '';
      // A wait that timed out says what the world looked like then: the only trace of it after the run.
      const world = o.passed ? '' : `; waiting on:\n${describeWaiting(run.pg)}`;
      return run.record(i, `wait ≤ ${w.timeout}: ${describeExpectation(w.for)}${during}`, {
        passed: o.passed,
        observed: `${o.observed} after ${waited()} s${world}`,
      });
    }
    await run.pass(sliceMs);
  }
}

async function runStep(run: Run, i: number, step: Step, baseDir: string): Promise<boolean> {
  const writes = 'apply' in step || 'delete' in step || 'scale' in step || 'fault' in step;
  try {
    return await performStep(run, i, step, baseDir);
  } finally {
    if (writes) run.wrote();
  }
}

async function performStep(run: Run, i: number, step: Step, baseDir: string): Promise<boolean> {
  const { pg } = run;
  if ('apply' in step) {
    const text = typeof step.apply === 'string' ? step.apply : readFileSync(resolve(baseDir, step.apply.file), 'utf8');
    // The runner plays the user and the observer: no fault it injected touches its own requests.
    const { client, discovery } = pg.observer;
    await applyObjects(client, discovery, parseManifests(text));
  } else if ('delete' in step) await deleteObject(pg.observer.client, pg.observer.discovery, step.delete);
  else if ('scale' in step) await scaleObject(pg.observer.client, pg.observer.discovery, step.scale);
  else if ('advance' in step) await run.pass(duration(step.advance));
  else if ('wait' in step) return wait(run, i, step.wait);
  else if ('fault' in step)
    run.record(i, `fault: ${Object.keys(step.fault)[0] ?? ''}`, {
      passed: true,
      observed: await injectFault(pg, step.fault),
    });
  else return run.record(i, describeExpectation(step.expect), await run.check(step.expect));
  return true;
}

/** Resolves with `fallback` if `work` has not settled within `ms` of wall time (an API server that stopped answering). */
async function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Watches a run on the wall clock: reports (once per stall) when simulated time has not moved for `stallMs`, and
 * turns an abort into a rejection that says what the run was waiting on.
 */
class RunGuard {
  readonly aborted: Promise<never>;
  private readonly timer?: ReturnType<typeof setInterval>;
  private stopAbort: () => void = () => undefined;

  constructor(run: Run, o: RunScenarioOptions) {
    const describe = (): string => `${run.where()}; waiting on:\n${describeWaiting(run.pg)}`;
    this.aborted = new Promise<never>((_, reject) => {
      const onAbort = (): void => reject(new Error(`run aborted at ${describe()}`));
      if (o.signal?.aborted) onAbort();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      this.stopAbort = () => o.signal?.removeEventListener('abort', onAbort);
    });
    this.aborted.catch(() => undefined);
    const onStall = o.onStall;
    if (!onStall) return;
    const stallMs = o.stallMs ?? 60_000;
    let seen = run.pg.clock.now();
    let reported = false;
    this.timer = setInterval(() => {
      const now = run.pg.clock.now();
      if (now !== seen) [seen, reported] = [now, false];
      else if (!reported) {
        reported = true;
        onStall(`simulated time has not moved for ${(stallMs / 1000).toFixed(0)} s of wall time at ${describe()}`);
      }
    }, stallMs);
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
    this.stopAbort();
  }
}

async function runSteps(run: Run, s: Scenario, baseDir: string): Promise<boolean> {
  await run.look(true);
  let passed = true;
  for (const [i, step] of s.steps.entries()) {
    run.at(i + 1, stepText(step), stepLabel(step));
    if (!(await runStep(run, i + 1, step, baseDir))) {
      passed = false;
      break;
    }
  }
  // The world as the run ends, failed or not: the report's last sample and "all pods running" come from it.
  await run.look(true);
  return passed;
}

/** Runs one scenario to its end (or first failure, or until `o.signal` aborts) and reports. */
export async function runScenario(s: Scenario, o: RunScenarioOptions = {}): Promise<RunReport> {
  const wall0 = performance.now();
  const seed = o.seed ?? s.seed ?? 1;
  const pg = await startPlayground({
    seed,
    zones: s.world?.zones,
    defaults: s.world?.defaults,
    log: o.log,
    apiTransport: o.apiTransport,
    cluster: o.cluster,
    options: attachedOptions(o),
  });
  const run = new Run(pg, wall0, { ...o, steps: s.steps.length });
  const guard = new RunGuard(run, o);
  let error: string | undefined;
  let passed: boolean;
  try {
    addCapacityReservations(pg, s.world);
    passed = await Promise.race([runSteps(run, s, o.baseDir ?? process.cwd()), guard.aborted]);
  } catch (e) {
    passed = false;
    error = e instanceof Error ? e.message : String(e);
  } finally {
    guard.stop();
  }
  // After an abort the API server may be what stopped answering: the report does not wait on it for long.
  const patience = o.signal?.aborted ? 10_000 : 600_000;
  const noEvents = { rows: [], omitted: 0, omittedByReason: {} };
  const events = await within(
    timeline(pg, run.t0).catch(() => noEvents),
    patience,
    noEvents,
  );
  const unexplainedWaits = await within(
    findUnexplainedWaits(pg).catch(() => undefined),
    patience,
    undefined,
  );
  const report: RunReport = {
    scenario: s.name,
    description: s.description,
    seed,
    passed,
    expectations: run.expectations,
    samples: run.samples,
    steps: run.steps,
    events: events.rows,
    ...(events.omitted > 0 ? { eventsOmitted: { count: events.omitted, byReason: events.omittedByReason } } : {}),
    ...(unexplainedWaits ? { unexplainedWaits } : {}),
    launched: launches(pg),
    fleet: launches(pg, ['pending', 'running']),
    costPerHour: run.samples.at(-1)?.costPerHour ?? 0,
    allRunning: run.allRunning,
    simSeconds: (pg.clock.now() - run.t0) / 1000,
    wallSeconds: (performance.now() - wall0) / 1000,
    error,
  };
  await within(pg.stop(), patience, undefined);
  return report;
}
