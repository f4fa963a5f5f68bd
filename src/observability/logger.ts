import { pino, type Logger } from 'pino';

/** A structured JSON logger; child loggers carry the controller, object and reconcile id. */
export type { Logger } from 'pino';

/**
 * Creates the root logger at a level, writing JSON lines to `destination` (stdout by default), in Karpenter's
 * shape: `level` as an upper-case word, `time` in RFC 3339, `logger`, and the text under `message`, so log
 * queries written for Karpenter (`level="ERROR"`, `message=~"..."`) work unchanged. `time` is the host's clock
 * unless `now` is given (the playground passes its simulated clock).
 */
export function createLogger(opts: {
  level: string;
  destination?: NodeJS.WritableStream;
  now?: () => number;
  /** Fields added to every line (the reconcile in progress: see ReconcileContext). */
  mixin?: () => object;
}): Logger {
  const now = opts.now;
  return pino(
    {
      level: opts.level,
      base: { logger: 'controller' },
      ...(opts.mixin ? { mixin: opts.mixin } : {}),
      messageKey: 'message',
      errorKey: 'error',
      timestamp: now ? (): string => `,"time":"${new Date(now()).toISOString()}"` : pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label.toUpperCase() }) },
    },
    opts.destination ?? process.stdout,
  );
}
