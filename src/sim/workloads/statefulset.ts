/**
 * The StatefulSet controller: pods `<name>-<ordinal>` with stable claims `<template>-<name>-<ordinal>` created
 * from volumeClaimTemplates before their pod (and kept when it goes). OrderedReady creates one pod at a time,
 * each after the previous is Running and Ready, and removes the highest ordinal first; Parallel does all at once.
 */
import { isAlreadyExists, isNotFound, type Pod } from '../../kube/index.js';
import type { AgentContext } from '../world/agent.js';
import { controllerRef, SimResources, type PersistentVolumeClaim, type StatefulSet } from '../world/resources.js';
import { OwnedPodsController, podsOf, writeStatus } from './owned-pods.js';
import { isActive, isReady, podFromTemplate } from './pod-template.js';

/** The ordinal of a StatefulSet pod, or -1. */
export function ordinalOf(sts: StatefulSet, pod: Pod): number {
  const prefix = `${sts.metadata.name ?? ''}-`;
  const name = pod.metadata.name ?? '';
  return name.startsWith(prefix) ? Number(name.slice(prefix.length)) : -1;
}

/** The pod of ordinal `i`, its volumes pointing at its own claims. */
export function statefulPod(sts: StatefulSet, i: number): Pod {
  const name = `${sts.metadata.name ?? 'sts'}-${i}`;
  const pod = podFromTemplate(sts.spec.template, {
    namespace: sts.metadata.namespace ?? 'default',
    name,
    owner: controllerRef(sts, 'StatefulSet'),
    labels: { 'statefulset.kubernetes.io/pod-name': name, 'apps.kubernetes.io/pod-index': String(i) },
  });
  const claims = (sts.spec.volumeClaimTemplates ?? []).map((t) => ({
    name: t.metadata.name,
    persistentVolumeClaim: { claimName: `${t.metadata.name}-${name}` },
  }));
  const others = (pod.spec.volumes ?? []).filter((v) => !claims.some((c) => c.name === v.name));
  pod.spec.volumes = [...others, ...claims];
  return pod;
}

/** The StatefulSet controller agent. */
export class StatefulSetController extends OwnedPodsController {
  readonly name = 'statefulset-controller';

  /** Creates the controller. */
  constructor(ctx: AgentContext) {
    super(ctx, { kind: 'StatefulSet', resource: SimResources.statefulSets });
  }

  protected async reconcile(key: string): Promise<void> {
    const sts = this.ctx.informers.get<StatefulSet>(SimResources.statefulSets).cache.get(key);
    if (!sts || sts.metadata.deletionTimestamp) return;
    const pods = podsOf(this.ctx, sts);
    if (this.expectations.satisfied(key)) await this.step(key, sts, pods);
    const active = pods.filter(isActive);
    await writeStatus(this.ctx, SimResources.statefulSets, sts, {
      replicas: active.length,
      currentReplicas: active.length,
      readyReplicas: active.filter(isReady).length,
      observedGeneration: sts.metadata.generation ?? 1,
    });
  }

  private async step(key: string, sts: StatefulSet, pods: Pod[]): Promise<void> {
    const replicas = sts.spec.replicas ?? 1;
    const ordered = (sts.spec.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady';
    const byOrdinal = new Map(pods.map((p) => [ordinalOf(sts, p), p]));
    for (const p of pods.filter((x) => x.status?.phase === 'Failed' && !x.metadata.deletionTimestamp))
      await this.remove(key, p);
    for (let i = 0; i < replicas; i++) {
      const p = byOrdinal.get(i);
      if (!p) {
        this.expectations.expect(key, 1, 0);
        await this.create(key, sts, i);
        if (ordered) return;
      } else if (ordered && !(isActive(p) && isReady(p))) return;
    }
    const surplus = pods
      .filter((p) => ordinalOf(sts, p) >= replicas && !p.metadata.deletionTimestamp)
      .sort((a, b) => ordinalOf(sts, b) - ordinalOf(sts, a));
    for (const p of ordered ? surplus.slice(0, 1) : surplus) {
      this.expectations.expect(key, 0, 1);
      await this.remove(key, p);
    }
  }

  private async create(key: string, sts: StatefulSet, i: number): Promise<void> {
    const pod = statefulPod(sts, i);
    for (const t of sts.spec.volumeClaimTemplates ?? []) {
      const claim: PersistentVolumeClaim = {
        metadata: {
          name: `${t.metadata.name}-${pod.metadata.name ?? ''}`,
          namespace: pod.metadata.namespace,
          labels: { ...sts.spec.selector.matchLabels, ...t.metadata.labels },
        },
        spec: structuredClone(t.spec),
      };
      await this.ctx.client
        .create(SimResources.persistentVolumeClaims, claim)
        .catch((e: unknown) => (isAlreadyExists(e) ? undefined : Promise.reject(e)));
    }
    try {
      await this.ctx.client.create(SimResources.pods, pod);
    } catch (e) {
      this.expectations.created(key);
      if (!isAlreadyExists(e)) throw e;
    }
  }

  private async remove(key: string, p: Pod): Promise<void> {
    try {
      await this.ctx.client.delete(SimResources.pods, { name: p.metadata.name ?? '', namespace: p.metadata.namespace });
    } catch (e) {
      this.expectations.deleted(key);
      if (!isNotFound(e)) throw e;
    }
  }
}
