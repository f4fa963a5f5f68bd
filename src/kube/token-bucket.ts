/**
 * A token bucket on caller-supplied time, as client-go's flowcontrol limiter: it starts full with `burst` tokens
 * and refills `qps` tokens a second up to `burst`. Time comes from the caller so simulated clocks drive it.
 */
export class TokenBucket {
  private tokens: number;
  private last: number | undefined;

  /** Creates a full bucket. */
  constructor(
    private readonly qps: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** Takes a token at time `now` (ms) if one is there; false when the bucket is empty. */
  tryAccept(now: number): boolean {
    if (!this.hasToken(now)) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether a token is there at time `now` (ms), without taking it. */
  hasToken(now: number): boolean {
    if (this.last !== undefined)
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    return this.tokens >= 1;
  }
}
