/**
 * A replica for the leader election tests, run as its own process (`node --import tsx test/operator/replica.ts`):
 * leader election and the fenced client wired as `tenon controller` wires them, driven by commands on stdin.
 *   argv: WRITE_KUBECONFIG ELECTOR_KUBECONFIG LEASE_MS RENEW_DEADLINE_MS RETRY_MS
 *   stdin: `block MS` (keeps the main thread busy for MS, then writes once), `write NAME`, `writes` (writes every
 *   100 ms until it is refused).
 * stdout: the JSON log lines, and lines `REPLICA <event> [detail]` (won, blocked, wrote NAME RV, refused NAME).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { createInterface } from 'node:readline';
import { fencedTransport, KubeClient, Resources, transportFromKubeConfig } from '../../src/kube/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { runLeaderElection } from '../../src/operator/leadership.js';

const [writeConfig = '', electorConfig = '', leaseMs, renewMs, retryMs] = process.argv.slice(2);
const say = (line: string): void => void process.stdout.write(`REPLICA ${line}\n`);
const kubeConfig = (file: string): KubeConfig => {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
};

const leadership = runLeaderElection({
  kubeConfig: kubeConfig(electorConfig),
  namespace: 'kube-system',
  name: 'tenon-leader-election',
  log: createLogger({ level: 'debug' }),
  leaseDurationMs: Number(leaseMs),
  renewDeadlineMs: Number(renewMs),
  retryPeriodMs: Number(retryMs),
  onLost: () => process.exit(1),
});
const client = new KubeClient(
  fencedTransport(await transportFromKubeConfig(kubeConfig(writeConfig)), () => leadership.leading()),
);
let sequence = 0;

/** Creates a ConfigMap; true when the write landed, false when the fence refused it. */
async function write(name: string): Promise<boolean> {
  try {
    const cm = await client.create(Resources.configMaps, { metadata: { name, namespace: 'default' } });
    say(`wrote ${name} ${cm.metadata.resourceVersion ?? ''}`);
    return true;
  } catch (e: unknown) {
    say(`refused ${name} ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
}

void leadership.won.then((won) => won && say('won'));
for await (const line of createInterface({ input: process.stdin })) {
  const [command, arg = ''] = line.split(' ');
  if (command === 'block') {
    // A long synchronous stretch, as a large solve is: nothing else runs on this thread meanwhile.
    const until = Date.now() + Number(arg);
    while (Date.now() < until);
    say('blocked');
    await write(`after-block-${sequence++}`);
  } else if (command === 'write') await write(arg);
  else if (command === 'writes')
    void (async () => {
      while (await write(`w-${sequence++}`)) await new Promise((r) => setTimeout(r, 100));
    })();
}
