/** The benchmark's API server, run in its own process so client CPU and memory do not count as the server's. */
import { startApiServer } from '../../src/apiserver/index.js';

const server = await startApiServer({ crds: [] });
process.send?.({ type: 'ready', kubeConfigYaml: server.kubeConfigYaml });
process.on('message', (m: { type: string }) => {
  if (m.type === 'rss') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ type: 'rss', rss: process.memoryUsage().rss });
  }
  if (m.type === 'cpu') {
    const used = process.cpuUsage();
    process.send?.({ type: 'cpu', ms: (used.user + used.system) / 1000 });
  }
  if (m.type === 'stop') void server.close().then(() => process.exit(0));
});
