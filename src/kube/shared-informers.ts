/**
 * One informer per resource type for every component of a process that talks to the API server through one
 * client and clock: the playground's simulated world and Tenon's operator each used to list and watch (and keep
 * a parsed copy of) every pod and node. Components ask for the indexers they need; the cache keeps them all.
 * Objects in a shared cache are read-only to everyone, as in any informer.
 */
import type { Clock } from '../clock/index.js';
import type { KubeClient } from './client.js';
import { Informer, type ObjectTransform } from './informer.js';
import type { Indexers } from './object-cache.js';
import type { KubeObject, ResourceType } from './resources.js';

/** What every shared informer is built with. */
export interface SharedInformersOptions {
  client: KubeClient;
  clock: Clock;
  onError?: (e: unknown) => void;
  /** Applied to every object before it is cached (see ObjectTransform). */
  transform?: ObjectTransform;
}

/** A registry of informers shared by the components of one process. */
export class SharedInformers {
  private readonly informers = new Map<string, Informer<KubeObject>>();

  /** An empty registry. */
  constructor(private readonly opts: SharedInformersOptions) {}

  /** The informer of a resource type, created (not started) on first use, with `indexers` added to its cache. */
  get<T extends KubeObject>(rt: ResourceType<T>, indexers: Indexers<T> = {}): Informer<T> {
    const key = `${rt.group}/${rt.version}/${rt.plural}`;
    let inf = this.informers.get(key) as Informer<T> | undefined;
    if (!inf) {
      inf = new Informer<T>({
        client: this.opts.client,
        clock: this.opts.clock,
        resource: rt,
        indexers,
        onError: this.opts.onError,
        transform: this.opts.transform,
      });
      this.informers.set(key, inf as unknown as Informer<KubeObject>);
    } else inf.cache.addIndexers(indexers);
    return inf;
  }

  /** Stops every informer (each component's own stop leaves shared ones running until this). */
  stop(): void {
    for (const inf of this.informers.values()) inf.stop();
  }
}
