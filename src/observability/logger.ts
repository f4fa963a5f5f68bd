import { pino, type Logger } from 'pino';

/** A structured JSON logger; child loggers carry the controller, object and reconcile id. */
export type { Logger } from 'pino';

/** Creates the root logger at a level, writing JSON lines to `destination` (stdout by default). */
export function createLogger(opts: { level: string; destination?: NodeJS.WritableStream }): Logger {
  return pino({ level: opts.level, base: { component: 'tenon' }, timestamp: pino.stdTimeFunctions.isoTime }, opts.destination ?? process.stdout);
}
