/**
 * Volume topology (SCENARIOS.md S4) and CSI attach limits: a bound PV's node affinity must hold on the node; an
 * unbound claim whose StorageClass binds Immediate must not be placed at all; WaitForFirstConsumer restricts the
 * node to the StorageClass's allowedTopologies; attachable volumes per CSI driver stay within the node's limit.
 */
import type { NodeSelectorTerm, Pod, Volume, VolumeInfo } from '../model.js';
import { termAlwaysHolds, type NodeLabels } from '../rules/labels.js';
import type { Violation } from './violation.js';
import type { World } from './world.js';

interface VolumeNeeds {
  /** Alternatives (ORed terms); each entry must be satisfied. */
  terms: { what: string; terms: NodeSelectorTerm[] }[];
  errors: string[];
  attachments: { driver: string; id: string }[];
}

function allowedTerms(
  topologies: { matchLabelExpressions?: { key: string; values: string[] }[] }[] | undefined,
): NodeSelectorTerm[] {
  return (topologies ?? []).map((t) => ({
    matchExpressions: (t.matchLabelExpressions ?? []).map((e) => ({
      key: e.key,
      operator: 'In' as const,
      values: e.values,
    })),
  }));
}

function boundNeeds(
  volumeName: string,
  ctx: { info: VolumeInfo; provisioner: string | undefined },
  out: VolumeNeeds,
): void {
  const pv = ctx.info.volumes?.[volumeName];
  if (pv?.nodeAffinity?.length)
    out.terms.push({ what: `persistentvolume ${volumeName} node affinity`, terms: pv.nodeAffinity });
  const driver = pv?.driver ?? ctx.provisioner;
  if (driver) out.attachments.push({ driver, id: volumeName });
}

function ephemeralNeeds(pod: Pod, v: Volume, info: VolumeInfo | undefined, out: VolumeNeeds): void {
  const scName = v.ephemeral?.volumeClaimTemplate?.spec?.storageClassName;
  const sc = scName !== undefined ? info?.storageClasses?.[scName] : undefined;
  if (sc?.allowedTopologies?.length)
    out.terms.push({ what: `storageclass ${sc.name} allowedTopologies`, terms: allowedTerms(sc.allowedTopologies) });
  if (sc?.provisioner)
    out.attachments.push({
      driver: sc.provisioner,
      id: `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}-${v.name}`,
    });
}

function claimNeeds(key: string, info: VolumeInfo, out: VolumeNeeds): void {
  const claim = info.claims?.[key];
  if (!claim) {
    out.errors.push(`persistentvolumeclaim ${key} does not exist`);
    return;
  }
  const sc = claim.storageClassName !== undefined ? info.storageClasses?.[claim.storageClassName] : undefined;
  if (claim.volumeName !== undefined) {
    boundNeeds(claim.volumeName, { info, provisioner: sc?.provisioner }, out);
    return;
  }
  if (sc?.volumeBindingMode !== 'WaitForFirstConsumer') {
    out.errors.push(`persistentvolumeclaim ${key} is unbound and binds Immediate: the pod must wait for it`);
    return;
  }
  if (sc.allowedTopologies?.length)
    out.terms.push({ what: `storageclass ${sc.name} allowedTopologies`, terms: allowedTerms(sc.allowedTopologies) });
  if (sc.provisioner) out.attachments.push({ driver: sc.provisioner, id: key });
}

/** What a pod's volumes require of its node. */
export function volumeNeeds(pod: Pod, info: VolumeInfo | undefined): VolumeNeeds {
  const out: VolumeNeeds = { terms: [], errors: [], attachments: [] };
  const ns = pod.metadata.namespace ?? 'default';
  for (const v of pod.spec.volumes ?? []) {
    if (v.persistentVolumeClaim) claimNeeds(`${ns}/${v.persistentVolumeClaim.claimName}`, info ?? {}, out);
    if (v.ephemeral) ephemeralNeeds(pod, v, info, out);
  }
  return out;
}

function topologyFailure(needs: VolumeNeeds, labels: NodeLabels): string | undefined {
  for (const n of needs.terms)
    if (!n.terms.some((t) => termAlwaysHolds(labels, t))) return `${n.what} is not guaranteed on this node`;
  return undefined;
}

/** Volume topology and CSI attach-limit violations of pods placed by this solve. */
export function checkVolumes(world: World): Violation[] {
  const out: Violation[] = [];
  const info = world.input.volumes;
  for (const node of world.nodes) {
    const attached = new Map<string, Set<string>>();
    let hasNew = false;
    for (const p of node.pods) {
      const needs = volumeNeeds(p.pod, info);
      for (const a of needs.attachments) {
        let s = attached.get(a.driver);
        if (!s) attached.set(a.driver, (s = new Set()));
        s.add(a.id);
      }
      if (!p.isNew) continue;
      hasNew = true;
      for (const e of needs.errors)
        out.push({ family: 'volume-topology', pod: p.key, target: node.target, message: e });
      const topo = topologyFailure(needs, node.labels);
      if (topo) out.push({ family: 'volume-topology', pod: p.key, target: node.target, message: topo });
    }
    const limits = node.existing?.csiAttachLimits ?? {};
    for (const [driver, ids] of attached) {
      const limit = limits[driver];
      if (hasNew && limit !== undefined && ids.size > limit) {
        out.push({
          family: 'csi-limits',
          target: node.target,
          message: `${node.target} would attach ${ids.size} ${driver} volumes, its limit is ${limit}`,
          details: { driver, attached: ids.size, limit },
        });
      }
    }
  }
  return out;
}
