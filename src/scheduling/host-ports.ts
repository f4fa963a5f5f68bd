/**
 * Host ports (kube-scheduler's NodePorts plugin): two pods conflict when they use the same protocol and port and
 * their host IPs overlap (0.0.0.0 overlaps every address).
 */
import type { Pod } from './model.js';

/** One host port a pod uses. */
export interface HostPort {
  protocol: string;
  ip: string;
  port: number;
}

/** The host ports of a pod's containers (init containers included, as the kubelet binds them too). */
export function hostPortsOf(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort) continue;
      out.push({
        protocol: p.protocol ?? 'TCP',
        ip: p.hostIP && p.hostIP !== '' ? p.hostIP : '0.0.0.0',
        port: p.hostPort,
      });
    }
  }
  return out;
}

/** The first of `wanted` that conflicts with `used`, if any. */
export function conflictingPort(used: readonly HostPort[], wanted: readonly HostPort[]): HostPort | undefined {
  for (const w of wanted) {
    for (const u of used) {
      if (u.port !== w.port || u.protocol !== w.protocol) continue;
      if (u.ip === w.ip || u.ip === '0.0.0.0' || w.ip === '0.0.0.0') return w;
    }
  }
  return undefined;
}
