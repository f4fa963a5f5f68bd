/** Where a playground's controller log lines go: every target gets every line (a file, the terminal, the tenon pod). */
import { Writable } from 'node:stream';
import type { Clock } from '../../clock/index.js';
import { createLogger, type Logger } from '../../observability/logger.js';

/** One receiver of log text. */
export interface LogTarget {
  write(text: string): void;
}

/** A stream that copies every chunk to each target. */
export function fanOut(targets: readonly LogTarget[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done): void {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      for (const t of targets) t.write(text);
      done();
    },
  });
}

function silentLogger(): Logger {
  return createLogger({ level: 'error', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
}

/** The controllers' logger: the caller's, or JSON lines in simulated time to a stream and the `tenon` pod's log. */
export function operatorLog(o: {
  log?: Logger;
  destination?: NodeJS.WritableStream;
  clock: Clock;
  controllerLog?: LogTarget;
}): Logger {
  if (o.log) return o.log;
  const targets: LogTarget[] = [];
  const destination = o.destination;
  if (destination) targets.push({ write: (text) => destination.write(text) });
  if (o.controllerLog) targets.push(o.controllerLog);
  return targets.length > 0
    ? createLogger({ level: 'info', destination: fanOut(targets), now: () => o.clock.now() })
    : silentLogger();
}
