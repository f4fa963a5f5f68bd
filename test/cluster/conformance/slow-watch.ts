/**
 * A watch client that stops reading: it opens a watch on a namespace's ConfigMaps, reads nothing while large
 * ConfigMaps are written, then reads what the server kept for it. kube-apiserver closes such a watcher rather
 * than buffering every event for it; the embedded server must do the same.
 */
import { request, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { send, type Endpoint } from './endpoint.js';

/** What the stalled watcher saw once it read again. */
export interface SlowWatchOutcome {
  /** Events received. */
  events: number;
  /** Whether the server ended the stream (before the watch's own timeout). */
  closedByServer: boolean;
}

function openWatch(ep: Endpoint, path: string): Promise<IncomingMessage> {
  const u = new URL(path, ep.url);
  const open = u.protocol === 'https:' ? httpsRequest : request;
  return new Promise((resolve, reject) => {
    const req = open(
      {
        hostname: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        ca: ep.caPem,
        headers: { authorization: `Bearer ${ep.token}`, accept: 'application/json', 'user-agent': 'tenon-slow-watch' },
      },
      (res) => {
        res.pause();
        resolve(res);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Reads the rest of a stream: events counted, and whether it ended before `all` events came or `limitMs` passed. */
function drain(res: IncomingMessage, all: number, limitMs: number): Promise<SlowWatchOutcome> {
  return new Promise((resolve) => {
    let events = 0;
    const stillOpen = (): void => {
      clearTimeout(timer);
      res.destroy();
      resolve({ events, closedByServer: false });
    };
    const timer = setTimeout(stillOpen, limitMs);
    res.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 0x0a) events++;
      if (events >= all) stillOpen();
    });
    const done = (): void => {
      clearTimeout(timer);
      resolve({ events, closedByServer: true });
    };
    res.on('end', done);
    res.on('error', done);
    res.resume();
  });
}

/**
 * Opens the stalled watch in `ns`, writes `count` ConfigMaps of `bytes` each (`pauseMs` apart), then reads.
 * The watch's own timeout is far beyond the run, so a stream that ends was closed by the server.
 */
export async function slowWatch(
  ep: Endpoint,
  ns: string,
  o: { count: number; bytes: number; pauseMs: number },
): Promise<SlowWatchOutcome> {
  const res = await openWatch(ep, `/api/v1/namespaces/${ns}/configmaps?watch=true&timeoutSeconds=600`);
  const data = { x: 'a'.repeat(o.bytes) };
  for (let i = 0; i < o.count; i++) {
    const r = await send(ep, {
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}` }, data },
    });
    if (r.status !== 201) throw new Error(`${ep.name}: creating ConfigMap big-${i}: ${r.status} ${r.text}`);
    if (o.pauseMs > 0) await new Promise((r2) => setTimeout(r2, o.pauseMs));
  }
  return drain(res, o.count, 15_000);
}
