import { pino, type Logger } from 'pino';

/** A structured JSON logger; child loggers carry the controller, object and reconcile id. */
export type { Logger } from 'pino';

/**
 * Creates the root logger at a level, writing JSON lines to `destination` (stdout by default), in Karpenter's
 * shape: `level` as an upper-case word, `time` in RFC 3339, `logger`, and the text under `message`, so log
 * queries written for Karpenter (`level="ERROR"`, `message=~"..."`) work unchanged.
 */
export function createLogger(opts: { level: string; destination?: NodeJS.WritableStream }): Logger {
  return pino(
    {
      level: opts.level,
      base: { logger: 'controller' },
      messageKey: 'message',
      errorKey: 'error',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label.toUpperCase() }) },
    },
    opts.destination ?? process.stdout,
  );
}
