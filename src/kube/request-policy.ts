import { sleep, type Clock } from '../clock/index.js';
import { backoffDelay, type Backoff } from './backoff.js';
import { TokenBucket } from './token-bucket.js';

/** Client-side request limits and retries, as client-go's rest client applies them. */
export interface RequestPolicy {
  /** Requests a second, sustained (Karpenter's KUBE_CLIENT_QPS); unset means no limit. */
  qps?: number;
  /** Requests allowed at once above `qps` (Karpenter's KUBE_CLIENT_BURST). */
  burst?: number;
  /** A buffered request still unanswered after this is abandoned (ms); watches are exempt. */
  timeoutMs?: number;
  /** Retries of a 429 or 5xx answer (0: none). */
  maxRetries?: number;
  /** Delay between retries when the server names none. */
  backoff?: Backoff;
  /** Drives rate-limit waits and retry delays. */
  clock: Clock;
}

/** Retry delays when the server names none: doubling from half a second, capped below a lease's renew deadline. */
const defaultBackoff: Backoff = { base: 500, max: 8_000 };

/** The longest Retry-After honoured; a server asking for more is retried sooner rather than stalling a controller. */
const maxRetryAfterMs = 60_000;

/** Waits for a token of a token bucket on the policy's clock; callers queue in order. */
export class RateLimiter {
  private readonly bucket: TokenBucket;
  private tail: Promise<void> = Promise.resolve();

  /** A limiter of `qps` sustained and `burst` at once. */
  constructor(
    private readonly clock: Clock,
    private readonly qps: number,
    burst: number,
  ) {
    this.bucket = new TokenBucket(qps, Math.max(1, burst));
  }

  /** Resolves when this caller may send its request. */
  wait(): Promise<void> {
    const turn = this.tail.then(() => this.take());
    this.tail = turn;
    return turn;
  }

  private async take(): Promise<void> {
    while (!this.bucket.tryAccept(this.clock.now())) await sleep(this.clock, Math.ceil(1000 / this.qps));
  }
}

/** What the transport knows of one answer when deciding on a retry. */
export interface Answer {
  method: string;
  status: number;
  retryAfter?: string;
}

/**
 * The delay before retrying `answer` (attempt 1 is the first retry), or undefined for no retry. As client-go:
 * a 429 or 5xx carrying Retry-After is retried for any verb (the server did not act on it); beyond client-go,
 * a GET answered 5xx or not at all (status 0) is retried with back-off, since reading twice is harmless.
 */
export function retryDelay(
  p: Pick<RequestPolicy, 'maxRetries' | 'backoff'>,
  answer: Answer,
  attempt: number,
): number | undefined {
  if (attempt > (p.maxRetries ?? 0)) return undefined;
  const throttled = answer.status === 429 || (answer.status >= 500 && answer.status < 600);
  const seconds = answer.retryAfter === undefined ? NaN : Number(answer.retryAfter);
  if (throttled && Number.isFinite(seconds) && seconds >= 0)
    return Math.min(maxRetryAfterMs, Math.max(seconds * 1000, backoffDelay(p.backoff ?? defaultBackoff, 1)));
  const transient = answer.status === 0 || answer.status >= 500;
  if (answer.method === 'GET' && transient) return backoffDelay(p.backoff ?? defaultBackoff, attempt);
  return undefined;
}
