/**
 * `--state FILE` made durable: the write log (write-log.ts) replayed over the snapshot at start, fed by every
 * commit while running, and waited for before an answer to a client's write leaves the server.
 */
import type { ResponseSink } from '../http/http-io.js';
import type { ServerState } from '../state.js';
import { restoreDeletion, restoreEntry } from './commit.js';
import { StateFileError } from './persistence.js';
import { logFilesOf, readLog, WriteLog } from './write-log.js';
import type { ResourceInfo } from '../resources/resource-types.js';
import { isJson, type KObject } from '../types.js';

function resourceName(info: ResourceInfo): string {
  return `${info.group}/${info.version}/${info.plural}`;
}

/**
 * Applies the log records past the loaded snapshot (the moved-aside log first, then the current one); returns
 * whether there were any.
 */
export function replayWriteLog(state: ServerState, stateFile: string): boolean {
  const files = logFilesOf(stateFile);
  const after = state.store.currentRv();
  let replayed = false;
  for (const file of [files.old, files.current])
    for (const r of readLog(file)) {
      if (r.rv <= after) continue;
      const [group = '', version = '', plural = ''] = r.resource.split('/');
      const info = state.registry.find(group, version, plural);
      if (!info) throw new StateFileError(file, `resource ${r.resource} is not served`);
      if (r.deleted) restoreDeletion(state, info, r.deleted.key);
      else if (isJson(r.object)) restoreEntry(state, info, r.object as KObject);
      state.store.setRv(r.rv);
      replayed = true;
    }
  return replayed;
}

/** Opens the write log and records every commit in it from now on. */
export function startWriteLog(state: ServerState, stateFile: string, onError: (e: unknown) => void): WriteLog {
  const log = new WriteLog(logFilesOf(stateFile), onError);
  state.onCommit.push((info, type, entry) => {
    const head = `{"rv":${entry.rv},"resource":${JSON.stringify(resourceName(info))},`;
    log.append(
      type === 'DELETED'
        ? Buffer.from(`${head}"deleted":${JSON.stringify({ key: entry.key })}}\n`)
        : Buffer.concat([Buffer.from(`${head}"object":`), entry.json, Buffer.from('}\n')]),
    );
  });
  state.writeLog = log;
  return log;
}

/**
 * The response to a client's write, ended only once the write log is durable: an acknowledged write survives
 * kill -9. When the log cannot be written the connection is dropped, so nothing unsaved is acknowledged.
 */
export function durableResponse(res: ResponseSink, log: WriteLog): ResponseSink {
  return {
    writeHead: (status, headers) => res.writeHead(status, headers),
    write: (chunk) => res.write(chunk),
    end: (chunk) =>
      log.flush().then(
        () => res.end(chunk),
        () => res.destroy(),
      ),
    flushHeaders: () => res.flushHeaders(),
    once: (event, listener) => res.once(event, listener),
    on: (event, listener) => res.on(event, listener),
    destroy: () => res.destroy(),
    get headersSent() {
      return res.headersSent;
    },
    get writableEnded() {
      return res.writableEnded;
    },
  };
}
