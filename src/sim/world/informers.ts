/**
 * Informers shared by every agent of the world, one per resource type, so a hundred kubelets and the
 * controllers watch pods and nodes once. Each cache is indexed by controller owner uid, and pods by node name.
 */
import type { Clock } from '../../clock/index.js';
import {
  Informer,
  type Indexers,
  type KubeClient,
  type KubeObject,
  type Pod,
  type ResourceType,
  type SharedInformers,
} from '../../kube/index.js';

/** Index name: a controller owner's uid. */
export const ByOwner = 'owner';
/**
 * Index name: a bound pod's node. The name and meaning of Tenon's own pod index (src/state/informers.ts), so a
 * shared pod cache keeps one such index for both, not a second set entry per pod.
 */
export const ByNode = 'nodeName';

const ownerIndexer = (o: KubeObject): string[] => {
  const uid = o.metadata.ownerReferences?.find((r) => r.controller)?.uid;
  return uid ? [uid] : [];
};

function indexersFor(rt: ResourceType<unknown>): Indexers<KubeObject> {
  if (rt.kind !== 'Pod') return { [ByOwner]: ownerIndexer };
  return {
    [ByOwner]: ownerIndexer,
    [ByNode]: (o) => ((o as Pod).spec.nodeName ? [(o as Pod).spec.nodeName ?? ''] : []),
  };
}

/** Options of the set. */
export interface InformerSetOptions {
  client: KubeClient;
  clock: Clock;
  onError?: (e: unknown) => void;
  /** A process-wide registry to take the informers from (left running on stop: its owner stops it). */
  shared?: SharedInformers;
}

/** Lazily created, shared informers; started together. */
export class InformerSet {
  private readonly informers = new Map<string, Informer<KubeObject>>();
  private started = false;

  /** An empty set. */
  constructor(private readonly opts: InformerSetOptions) {}

  /** The shared informer of a resource type (created, and started if the set runs, on first use). */
  get<T extends KubeObject>(rt: ResourceType<T>): Informer<T> {
    const key = `${rt.group}/${rt.plural}`;
    let inf = this.informers.get(key);
    if (!inf) {
      const shared = this.opts.shared;
      inf = shared
        ? shared.get<KubeObject>(rt, indexersFor(rt))
        : new Informer<KubeObject>({
            client: this.opts.client,
            resource: rt,
            clock: this.opts.clock,
            indexers: indexersFor(rt),
            onError: this.opts.onError,
          });
      this.informers.set(key, inf);
      if (this.started) inf.start();
    }
    return inf as unknown as Informer<T>;
  }

  /** Starts every informer and waits until each has listed once. */
  async start(): Promise<void> {
    this.started = true;
    for (const inf of this.informers.values()) inf.start();
    await this.synced();
  }

  /** Resolves once every informer (including ones created late) has synced. */
  async synced(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.waitForSync()));
  }

  /** Stops every informer. */
  stop(): void {
    if (!this.opts.shared) for (const inf of this.informers.values()) inf.stop();
    this.started = false;
  }
}
