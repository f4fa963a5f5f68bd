/**
 * The differential conformance suite: every case's requests go to the embedded API server and to the real
 * kube-apiserver v1.33.13, and their answers are compared aspect by aspect (status, reason, the fields of an
 * error, the stored object after defaulting, printer columns). Differences not yet fixed are listed in
 * known-differences.ts with their reason; a case passes when it differs in exactly those aspects, so both a new
 * difference and a fixed one (whose entry must then go) fail it. The agreement figures are printed at the end.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../../src/apiserver/index.js';
import { clusterKubeconfig, eventually } from '../cluster.js';
import { cases as basicCases, type Step } from './cases.js';
import { disruptionCases } from './cases-disruption.js';
import { serverMetadataCases } from './cases-server-metadata.js';
import { watchAndApplyCases } from './cases-watch-apply.js';
import { compare, pathValue, type Check } from './compare.js';
import { endpointFromKubeconfig, send, type Endpoint, type Res } from './endpoint.js';
import { knownDifferences } from './known-differences.js';
import { slowWatch } from './slow-watch.js';

function fill(step: Step, ns: string, id: string, vars: Record<string, string>): Step {
  const sub = (t: string): string =>
    Object.entries(vars).reduce(
      (acc, [k, v]) => acc.replaceAll(`{${k}}`, v),
      t.replaceAll('{ns}', ns).replaceAll('{id}', id),
    );
  const body =
    step.body === undefined
      ? undefined
      : typeof step.body === 'string'
        ? sub(step.body)
        : (JSON.parse(sub(JSON.stringify(step.body))) as unknown);
  return { ...step, path: sub(step.path), body };
}

const cases = [...basicCases, ...disruptionCases, ...watchAndApplyCases, ...serverMetadataCases];

// One step on one server: repeated (a controller catching up) until its `until` holds, at most 30 s.
async function perform(ep: Endpoint, step: Step, vars: Record<string, string>): Promise<Res> {
  let res = await send(ep, step);
  if (step.until)
    await eventually(
      `${step.method} ${step.path} on ${ep.name}`,
      async () => {
        res = await send(ep, step);
        return step.until?.(res.body) ? true : undefined;
      },
      30_000,
    );
  for (const [name, path] of Object.entries(step.capture ?? {})) vars[name] = String(pathValue(res.body, path));
  if (step.sameAs && res.status < 300) {
    const same = Object.entries(step.sameAs).map(([path, name]) => [
      path,
      String(pathValue(res.body, path)) === vars[name],
    ]);
    res = { ...res, body: { metadata: {}, sameAs: Object.fromEntries(same) as unknown } };
  }
  if (step.only) {
    const body = res.body as Record<string, unknown>;
    res = { ...res, body: { metadata: {}, [step.only]: body?.[step.only] } };
  }
  return res;
}

// Names of this run: a namespace of an earlier run may still be terminating on the real server.
const run = Date.now().toString(36);
const tally = {
  agree: 0,
  total: 0,
  acceptedWhatRealRejects: [] as string[],
  differences: {} as Record<string, string[]>,
};

describe('differential conformance: embedded API server vs kube-apiserver v1.33.13', () => {
  let server: ApiServer;
  let embedded: Endpoint;
  let real: Endpoint;

  beforeAll(async () => {
    server = await startApiServer({ serviceAccountTokenVolumes: true });
    embedded = { name: 'embedded', url: server.url, caPem: server.caPem, token: server.token };
    real = endpointFromKubeconfig('real', clusterKubeconfig());
  });

  afterAll(async () => {
    await server?.close();
    const pct = tally.total === 0 ? 0 : (100 * tally.agree) / tally.total;
    process.stdout.write(`differential: ${tally.agree} of ${tally.total} checks agree (${pct.toFixed(1)}%)\n`);
    process.stdout.write(
      `accepted by the embedded server, rejected by the real one: ${tally.acceptedWhatRealRejects.length ? tally.acceptedWhatRealRejects.join('; ') : 'none'}\n`,
    );
    // The full comparison, for the issue notes and for updating known-differences.ts.
    const out = process.env.TENON_DIFFERENTIAL_REPORT;
    if (out)
      writeFileSync(
        out,
        JSON.stringify(
          {
            agree: tally.agree,
            total: tally.total,
            acceptedWhatRealRejects: tally.acceptedWhatRealRejects,
            differences: tally.differences,
          },
          null,
          2,
        ),
      );
  });

  it('a watch client that stops reading is closed, not buffered for', async () => {
    const seen: Record<string, string> = {};
    for (const ep of [embedded, real]) {
      const ns = `diff-${run}-slow-${ep.name}`;
      await send(ep, { method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: ns } } });
      // 30 MB over 12 s or more: past the socket buffers, and past the embedded server's 5 s of patience.
      const r = await slowWatch(ep, ns, { count: 30, bytes: 1_000_000, pauseMs: 400 });
      seen[ep.name] = r.closedByServer && r.events < 30 ? 'closed' : `kept open with ${r.events} of 30 events`;
      await send(ep, { method: 'DELETE', path: `/api/v1/namespaces/${ns}` });
    }
    tally.total++;
    if (seen.embedded === seen.real) tally.agree++;
    else tally.differences['slow watcher'] = [`embedded ${seen.embedded} / real ${seen.real}`];
    expect(seen).toEqual({ embedded: 'closed', real: 'closed' });
  });

  cases.forEach((c, i) => {
    it(c.name, async () => {
      const ns = `diff-${run}-${i}`;
      const id = `${run}-${i}`;
      for (const ep of [embedded, real])
        await send(ep, {
          method: 'POST',
          path: '/api/v1/namespaces',
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
        });
      // The real ServiceAccount admission refuses pods until the namespace's default ServiceAccount exists.
      await eventually(
        `the default ServiceAccount in ${ns}`,
        async () =>
          (await send(real, { method: 'GET', path: `/api/v1/namespaces/${ns}/serviceaccounts/default` })).status === 200
            ? true
            : undefined,
        30_000,
      );
      const differing: string[] = [];
      const vars = { embedded: {} as Record<string, string>, real: {} as Record<string, string> };
      for (const [n, raw] of c.steps.entries()) {
        const e = await perform(embedded, fill(raw, ns, id, vars.embedded), vars.embedded);
        const r = await perform(real, fill(raw, ns, id, vars.real), vars.real);
        if (raw.setup) continue;
        const checks: Check[] = compare(e, r, { events: raw.events });
        for (const ch of checks) {
          tally.total++;
          if (ch.agree) tally.agree++;
          else if (ch.aspect === 'object')
            differing.push(`step ${n + 1} ${ch.aspect}: ${(ch.embedded as string[]).join('; ')}`);
          else
            differing.push(
              `step ${n + 1} ${ch.aspect}: embedded ${JSON.stringify(ch.embedded)} / real ${JSON.stringify(ch.real)}`,
            );
        }
        if (r.status >= 400 && e.status < 300) tally.acceptedWhatRealRejects.push(`${c.name} (real: ${r.status})`);
      }
      for (const ep of [embedded, real]) await send(ep, { method: 'DELETE', path: `/api/v1/namespaces/${ns}` });
      const aspects = differing.map((d) => d.split(':')[0] ?? d);
      if (differing.length > 0) tally.differences[c.name] = differing;
      expect(aspects, differing.join('\n')).toEqual(knownDifferences[c.name] ?? []);
    });
  });
});
