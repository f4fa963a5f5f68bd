/**
 * A Transport that hands requests to the embedded API server inside the same process. The playground's own
 * clients (controllers and the simulated world) spent most of their CPU on TLS and HTTP framing talking to a
 * server one function call away; kubectl and other users still come in over HTTPS.
 */
import type { LocalRequest, ResponseSink } from '../../apiserver/index.js';
import {
  LineBuffer,
  withQuery,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from '../../kube/index.js';

/** What the transport needs of the server. */
export interface InProcessServer {
  serveInProcess(req: LocalRequest, res: ResponseSink): Promise<void>;
}

/** How a response reaches its reader: written chunks, the end, or a reset. */
interface Receiver {
  data(chunk: Buffer | string): void;
  end(status: number): void;
  reset(): void;
}

/** A ResponseSink that forwards to a receiver; 'close' listeners run when the response ends or is abandoned. */
class Sink implements ResponseSink {
  status = 0;
  headersSent = false;
  writableEnded = false;
  private readonly closeListeners: Array<() => void> = [];

  constructor(private readonly receiver: Receiver) {}

  writeHead(status: number): this {
    this.status = status;
    this.headersSent = true;
    return this;
  }

  flushHeaders(): void {
    this.headersSent = true;
  }

  write(chunk: Buffer | string): boolean {
    if (!this.writableEnded) this.receiver.data(chunk);
    return true;
  }

  end(chunk?: Buffer | string): this {
    if (this.writableEnded) return this;
    if (chunk !== undefined) this.receiver.data(chunk);
    this.writableEnded = true;
    this.receiver.end(this.status);
    this.close();
    return this;
  }

  destroy(): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    this.receiver.reset();
    this.close();
    return this;
  }

  /** The reader went away: the server stops writing (a watch unsubscribes). */
  abandon(): void {
    this.writableEnded = true;
    this.close();
  }

  once(): this {
    // write() never asks the writer to wait, so 'drain' never comes.
    return this;
  }

  on(_event: 'close', listener: () => void): this {
    this.closeListeners.push(listener);
    return this;
  }

  private close(): void {
    const listeners = this.closeListeners.splice(0);
    if (listeners.length > 0) queueMicrotask(() => listeners.forEach((l) => l()));
  }
}

function localRequest(req: TransportRequest, extra: Readonly<Record<string, string>>): LocalRequest {
  const payload =
    req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
  const headers: Record<string, string> = { ...extra, accept: 'application/json' };
  if (payload !== undefined) headers['content-type'] = req.contentType ?? 'application/json';
  return {
    method: req.method,
    url: withQuery(req.path, req.query),
    headers,
    body: payload === undefined ? Buffer.alloc(0) : Buffer.from(payload, 'utf8'),
  };
}

function bufferedRequest(
  server: InProcessServer,
  req: TransportRequest,
  extra: Readonly<Record<string, string>>,
): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Sink({
      data: (c) => chunks.push(typeof c === 'string' ? Buffer.from(c, 'utf8') : c),
      end: (status) => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }),
      reset: () => reject(new Error(`${req.method} ${req.path}: the API server reset the response`)),
    });
    server.serveInProcess(localRequest(req, extra), sink).catch(reject);
  });
}

type StreamRequest = Parameters<Transport['stream']>[0];

/**
 * Watch lines are delivered on a later turn of the event loop, in order, as a socket would: the server writes
 * them while committing a change, and a client reacting there would re-enter the commit.
 */
function streamRequest(
  server: InProcessServer,
  req: StreamRequest,
  extra: Readonly<Record<string, string>>,
): Promise<TransportResponse> {
  return new Promise((settle, fail) => {
    // The signal outlives the request (an informer's, across its watches): the listener must go with the request.
    const onAbort = (): void => {
      sink.abandon();
      finished = { status: 0, body: '' };
      later();
    };
    const resolve = (r: TransportResponse): void => {
      req.signal.removeEventListener('abort', onAbort);
      settle(r);
    };
    const reject = (e: unknown): void => {
      req.signal.removeEventListener('abort', onAbort);
      fail(e);
    };
    let pending: string[] = [];
    const text = new LineBuffer();
    let finished: TransportResponse | undefined;
    let scheduled = false;
    const flush = (): void => {
      scheduled = false;
      const lines = pending;
      pending = [];
      for (const line of lines) if (!req.signal.aborted) req.onLine(line);
      if (finished) resolve(finished);
    };
    const later = (): void => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(flush);
    };
    const sink = new Sink({
      data: (c) => {
        if (text.push(typeof c === 'string' ? c : c.toString('utf8'), (line) => pending.push(line))) later();
      },
      end: (status) => {
        finished = { status, body: status === 200 ? '' : text.rest };
        later();
      },
      reset: () => {
        finished = { status: sink.status, body: text.rest };
        later();
      },
    });
    req.signal.addEventListener('abort', onAbort, { once: true });
    server.serveInProcess(localRequest(req, extra), sink).catch(reject);
  });
}

/** A Transport serving every request inside this process through the server's serveInProcess; `headers` go on every request. */
export function inProcessTransport(server: InProcessServer, headers: Readonly<Record<string, string>> = {}): Transport {
  return {
    request: (req) => bufferedRequest(server, req, headers),
    stream: (req) => streamRequest(server, req, headers),
  };
}
