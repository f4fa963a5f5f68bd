/**
 * The metrics operatorpkg's status controller writes for each status-conditioned kind (Karpenter registers it for
 * NodeClaim, NodePool and Node, the AWS provider for EC2NodeClass): `operator_<kind>_status_condition_*` and
 * `operator_<kind>_termination_*`, plus the kind-less deprecated families (`operator_status_condition_*`,
 * `operator_termination_*`, labeled by group and kind) for the kinds registered with EmitDeprecatedMetrics.
 * The gauges are filled when scraped; the counters and histograms are fed by {@link StatusConditionMetrics.observe}.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { InformerHandlers, KubeObject } from '../kube/index.js';
import { RowGauge, type Row } from './row-gauge.js';

/** A kind whose status conditions are reported, as operatorpkg's status controller is registered for it. */
export interface StatusKind {
  /** API group ('' for the core group). */
  group: string;
  kind: string;
  /** Object label keys copied onto the per-kind series (operatorpkg's WithLabels). */
  labels: readonly string[];
  /** Also written to the deprecated kind-less families (operatorpkg's EmitDeprecatedMetrics). */
  deprecated: boolean;
}

/** A status condition as any kind carries it (a Node's has no required reason). */
export interface ConditionLike {
  type: string;
  status: string;
  reason?: string;
  lastTransitionTime?: string;
}

/** An object with status conditions. */
export type Conditioned = KubeObject & { status?: { conditions?: ConditionLike[] } };

/** The objects of one kind, as an informer holds and announces them. */
export interface StatusObjects<T extends Conditioned> {
  cache: { list(): T[] };
  on(h: InformerHandlers<T>): void;
}

/** A kind to report and the informer holding its objects. */
export interface StatusSource<T extends Conditioned = Conditioned> {
  kind: StatusKind;
  objects: StatusObjects<T>;
}

/** client_golang's default histogram buckets, which operatorpkg uses unless told otherwise. */
export const defaultBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the gauges read at scrape time, per kind: the objects of the moment and the time. */
export interface StatusGaugeSource {
  objects(): Iterable<Conditioned>;
  /** Milliseconds since the epoch on the operator's clock. */
  now(): number;
}

/** Which gauge a scrape fills. */
type GaugeKind = 'count' | 'currentStatusSeconds' | 'terminating';

/** Seconds from an RFC 3339 time to `nowMs`, or undefined when the time is missing or malformed. */
function secondsSince(iso: string | undefined, nowMs: number): number | undefined {
  const at = Date.parse(iso ?? '');
  return Number.isFinite(at) ? Math.max(0, (nowMs - at) / 1000) : undefined;
}

/** An object's labels on every series: its identity first, the per-kind or kind labels last. */
interface ObjectLabels {
  base: Record<string, string>;
  tail: Record<string, string>;
}

/** A deleting object's seconds in termination, into `out`. */
function terminatingRow(o: Conditioned, l: ObjectLabels, now: number, out: Row[]): void {
  const s = o.metadata.deletionTimestamp ? secondsSince(o.metadata.deletionTimestamp, now) : undefined;
  if (s !== undefined) out.push({ labels: { ...l.base, ...l.tail }, value: s });
}

/** One row per condition of `o` into `out`: 1 each, or with `now` the seconds its status has been held. */
function conditionRows(o: Conditioned, l: ObjectLabels, now: number | undefined, out: Row[]): void {
  for (const c of o.status?.conditions ?? []) {
    const value = now === undefined ? 1 : secondsSince(c.lastTransitionTime, now);
    if (value === undefined) continue;
    out.push({ labels: { ...l.base, type: c.type, status: c.status, reason: c.reason ?? '', ...l.tail }, value });
  }
}

/** An event the counters and histograms record. */
export type StatusObservation =
  | {
      what: 'transition';
      objectLabels: Record<string, string>;
      type: string;
      status: string;
      reason: string;
      /** The condition left, and the seconds spent in it; absent when the condition is new. */
      from?: { status: string; seconds: number };
    }
  | { what: 'terminated'; objectLabels: Record<string, string>; seconds: number };

/** operatorpkg's label name for an object label key: every character Prometheus refuses becomes `_`. */
export function labelNameOf(key: string): string {
  return key.replace(/[^a-zA-Z0-9_]/g, '_');
}

interface KindFamilies {
  kind: StatusKind;
  extra: string[];
  transitionSeconds: Histogram;
  transitionsTotal: Counter;
  terminationDuration: Histogram;
}

/** The status-condition and termination families of every registered kind. */
export class StatusConditionMetrics {
  private readonly kinds = new Map<string, KindFamilies>();
  private readonly sources = new Map<string, StatusGaugeSource>();
  private readonly deprecated: {
    transitionSeconds: Histogram;
    transitionsTotal: Counter;
    terminationDuration: Histogram;
  };

  /** Registers the deprecated families on `registry`; kinds are added with {@link register}. */
  constructor(private readonly registry: Registry) {
    const registers = [registry];
    const kindLabels = ['group', 'kind'];
    this.deprecated = {
      transitionSeconds: new Histogram({
        name: 'operator_status_condition_transition_seconds',
        help: transitionHelp,
        labelNames: ['type', 'status', 'to_status', ...kindLabels],
        buckets: defaultBuckets,
        registers,
      }),
      transitionsTotal: new Counter({
        name: 'operator_status_condition_transitions_total',
        help: transitionsHelp,
        labelNames: ['type', 'status', 'reason', ...kindLabels],
        registers,
      }),
      terminationDuration: new Histogram({
        name: 'operator_termination_duration_seconds',
        help: terminationDurationHelp,
        labelNames: kindLabels,
        buckets: defaultBuckets,
        registers,
      }),
    };
    const deprecatedKinds = (): KindFamilies[] => [...this.kinds.values()].filter((k) => k.kind.deprecated);
    this.gauge('operator_status_condition_count', countHelp, [...conditionGaugeLabels, ...kindLabels], () =>
      deprecatedKinds().flatMap((k) => this.rows(k, 'count', false)),
    );
    this.gauge(
      'operator_status_condition_current_status_seconds',
      currentStatusHelp,
      [...conditionGaugeLabels, ...kindLabels],
      () => deprecatedKinds().flatMap((k) => this.rows(k, 'currentStatusSeconds', false)),
    );
    this.gauge(
      'operator_termination_current_time_seconds',
      terminationCurrentHelp,
      ['namespace', 'name', ...kindLabels],
      () => deprecatedKinds().flatMap((k) => this.rows(k, 'terminating', false)),
    );
  }

  /** Registers the per-kind families of `kind`, whose gauges read `source` when scraped. */
  register(kind: StatusKind, source: StatusGaugeSource): void {
    // A restarted operator reports through the families already registered.
    this.sources.set(kind.kind, source);
    if (this.kinds.has(kind.kind)) return;
    const prefix = `operator_${kind.kind.toLowerCase()}`;
    const extra = kind.labels.map(labelNameOf);
    const registers = [this.registry];
    const k: KindFamilies = {
      kind,
      extra,
      transitionSeconds: new Histogram({
        name: `${prefix}_status_condition_transition_seconds`,
        help: transitionHelp,
        labelNames: ['type', 'status', 'to_status', ...extra],
        buckets: defaultBuckets,
        registers,
      }),
      transitionsTotal: new Counter({
        name: `${prefix}_status_condition_transitions_total`,
        help: transitionsHelp,
        labelNames: ['type', 'status', 'reason', ...extra],
        registers,
      }),
      terminationDuration: new Histogram({
        name: `${prefix}_termination_duration_seconds`,
        help: terminationDurationHelp,
        labelNames: extra,
        buckets: defaultBuckets,
        registers,
      }),
    };
    this.kinds.set(kind.kind, k);
    this.gauge(`${prefix}_status_condition_count`, countHelp, [...conditionGaugeLabels, ...extra], () =>
      this.rows(k, 'count', true),
    );
    this.gauge(
      `${prefix}_status_condition_current_status_seconds`,
      currentStatusHelp,
      [...conditionGaugeLabels, ...extra],
      () => this.rows(k, 'currentStatusSeconds', true),
    );
    this.gauge(
      `${prefix}_termination_current_time_seconds`,
      terminationCurrentHelp,
      ['namespace', 'name', ...extra],
      () => this.rows(k, 'terminating', true),
    );
  }

  /** Records a condition transition or a finished termination of an object of `kind`. */
  observe(kind: string, o: StatusObservation): void {
    const k = this.kinds.get(kind);
    if (!k) return;
    const extra = this.extraLabels(k, o.objectLabels);
    const group = { group: k.kind.group, kind: k.kind.kind };
    if (o.what === 'terminated') {
      k.terminationDuration.observe(extra, o.seconds);
      if (k.kind.deprecated) this.deprecated.terminationDuration.observe(group, o.seconds);
      return;
    }
    const counted = { type: o.type, status: o.status, reason: o.reason };
    k.transitionsTotal.inc({ ...counted, ...extra });
    if (k.kind.deprecated) this.deprecated.transitionsTotal.inc({ ...counted, ...group });
    if (!o.from) return;
    const left = { type: o.type, status: o.from.status, to_status: o.status };
    k.transitionSeconds.observe({ ...left, ...extra }, o.from.seconds);
    if (k.kind.deprecated) this.deprecated.transitionSeconds.observe({ ...left, ...group }, o.from.seconds);
  }

  private extraLabels(k: KindFamilies, objectLabels: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    k.kind.labels.forEach((key, i) => (out[k.extra[i] ?? key] = objectLabels[key] ?? ''));
    return out;
  }

  private rows(k: KindFamilies, which: GaugeKind, perKind: boolean): Row[] {
    const source = this.sources.get(k.kind.kind);
    if (!source) return [];
    const out: Row[] = [];
    const now = source.now();
    for (const o of source.objects()) {
      // The object's part of every series' labels, built once per object.
      const base: Record<string, string> = { namespace: o.metadata.namespace ?? '', name: o.metadata.name ?? '' };
      const tail = perKind ? this.extraLabels(k, o.metadata.labels ?? {}) : { group: k.kind.group, kind: k.kind.kind };
      if (which === 'terminating') terminatingRow(o, { base, tail }, now, out);
      else conditionRows(o, { base, tail }, which === 'count' ? undefined : now, out);
    }
    return out;
  }

  private gauge(name: string, help: string, labelNames: string[], rows: () => Row[]): void {
    new RowGauge({ name, help, labelNames, registry: this.registry, rows });
  }
}

const conditionGaugeLabels = ['namespace', 'name', 'type', 'status', 'reason'];
const countHelp = 'The number of a condition for a given object, type and status. e.g. Alarm := Available=False > 0';
const currentStatusHelp =
  'The current amount of time in seconds that a status condition has been in a specific state. Alarm := P99(Updated=Unknown) > 5 minutes';
const transitionHelp =
  'The amount of time a condition was in a given state (status) before transitioning to another state (to_status). e.g. Alarm := P99(Updated=False) > 5 minutes';
const transitionsHelp = 'The count of transitions of a given object, type and status.';
const terminationCurrentHelp = 'The current amount of time in seconds that an object has been in terminating state.';
const terminationDurationHelp = 'The amount of time taken by an object to terminate completely.';
