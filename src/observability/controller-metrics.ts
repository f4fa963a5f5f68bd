/**
 * controller-runtime's reconcile metrics and client-go's workqueue metrics, with their names, labels and
 * buckets, so the controller panels of Karpenter's dashboards work. Gauges of what is in flight are read when
 * scraped.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { QueueObserver, ReconcileObserver } from '../kube/index.js';

/** controller-runtime's reconcile_time buckets (seconds). */
const reconcileBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75,
  2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
/** client-go's workqueue buckets: 10 ns to 1000 s by powers of ten. */
const queueBuckets = Array.from({ length: 12 }, (_, i) => 1e-8 * 10 ** i);

/** What is known of one controller between scrapes. */
interface Tracked {
  workers: number;
  depth: () => number;
  /** Start times (wall-clock ms) of the reconciles in flight. */
  inFlight: number[];
}

/** The reconcile and workqueue metrics of every controller. */
export class ControllerMetrics {
  private readonly tracked = new Map<string, Tracked>();
  private readonly reconcileTotal: Counter;
  private readonly reconcileErrors: Counter;
  private readonly terminalErrors: Counter;
  private readonly panics: Counter;
  private readonly timeouts: Counter;
  private readonly reconcileTime: Histogram;
  private readonly adds: Counter;
  private readonly retries: Counter;
  private readonly queueDuration: Histogram;
  private readonly workDuration: Histogram;

  /** Registers the metrics on `registry`. */
  constructor(private readonly registry: Registry) {
    const registers = [registry];
    const controller = ['controller'];
    const queue = ['controller', 'name'];
    this.reconcileTotal = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers,
    });
    this.reconcileErrors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: controller,
      registers,
    });
    this.terminalErrors = new Counter({
      name: 'controller_runtime_terminal_reconcile_errors_total',
      help: 'Total number of terminal reconciliation errors per controller',
      labelNames: controller,
      registers,
    });
    this.panics = new Counter({
      name: 'controller_runtime_reconcile_panics_total',
      help: 'Total number of reconciliation panics per controller',
      labelNames: controller,
      registers,
    });
    // Tenon's reconciles have no timeout: the series stays at 0, as a controller-runtime controller's without one.
    this.timeouts = new Counter({
      name: 'controller_runtime_reconcile_timeouts_total',
      help: 'Total number of reconciliation timeouts per controller',
      labelNames: controller,
      registers,
    });
    this.reconcileTime = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: controller,
      buckets: reconcileBuckets,
      registers,
    });
    this.scraped(
      'controller_runtime_active_workers',
      'Number of currently used workers per controller',
      controller,
      (t) => t.inFlight.length,
    );
    this.scraped(
      'controller_runtime_max_concurrent_reconciles',
      'Maximum number of concurrent reconciles per controller',
      controller,
      (t) => t.workers,
    );
    this.adds = new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames: queue,
      registers,
    });
    this.retries = new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames: queue,
      registers,
    });
    this.queueDuration = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested',
      labelNames: queue,
      buckets: queueBuckets,
      registers,
    });
    this.workDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames: queue,
      buckets: queueBuckets,
      registers,
    });
    this.scraped('workqueue_depth', 'Current depth of workqueue', queue, (t) => t.depth());
    this.scraped(
      'workqueue_unfinished_work_seconds',
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      queue,
      (t, now) => t.inFlight.reduce((s, at) => s + (now - at) / 1000, 0),
    );
    this.scraped(
      'workqueue_longest_running_processor_seconds',
      'How many seconds has the longest running processor for workqueue been running.',
      queue,
      (t, now) => t.inFlight.reduce((m, at) => Math.max(m, (now - at) / 1000), 0),
    );
  }

  /**
   * Instruments the controller `name`: its queue reports adds, retries and waits, and the returned observer is
   * given to its reconcile loop of `workers` workers.
   */
  instrument(
    name: string,
    queue: { length: number; instrument(o: QueueObserver): void },
    workers: number,
  ): ReconcileObserver {
    const t: Tracked = { workers, depth: () => queue.length, inFlight: [] };
    this.tracked.set(name, t);
    // As controller-runtime: every controller's series exist from its start, so a dashboard's controller list
    // (label_values of reconcile_errors_total) and its rates show controllers that never failed.
    for (const result of ['error', 'requeue', 'requeue_after', 'success'])
      this.reconcileTotal.inc({ controller: name, result }, 0);
    for (const c of [this.reconcileErrors, this.terminalErrors, this.panics, this.timeouts])
      c.inc({ controller: name }, 0);
    const q = { controller: name, name };
    queue.instrument({
      added: () => this.adds.inc(q),
      retried: () => this.retries.inc(q),
      waited: (ms) => this.queueDuration.observe(q, ms / 1000),
    });
    return {
      started: () => t.inFlight.push(performance.now()),
      finished: (outcome, ms) => {
        t.inFlight.shift();
        this.reconcileTotal.inc({ controller: name, result: outcome });
        if (outcome === 'error') this.reconcileErrors.inc({ controller: name });
        this.reconcileTime.observe({ controller: name }, ms / 1000);
        this.workDuration.observe(q, ms / 1000);
      },
    };
  }

  private scraped(name: string, help: string, labelNames: string[], value: (t: Tracked, now: number) => number): void {
    const tracked = this.tracked;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect(): void {
        this.reset();
        const now = performance.now();
        for (const [controller, t] of tracked) {
          const labels = labelNames.length === 1 ? { controller } : { controller, name: controller };
          this.set(labels, value(t, now));
        }
      },
    });
  }
}
