/**
 * Tags launched instances with their NodeClaim (`karpenter.sh/nodeclaim`, `Name`) in the background,
 * paced by a client-side token bucket so a burst of launches never exceeds EC2's CreateTags rate limit,
 * and retried with back-off when throttled anyway.
 */
import type { Clock } from '../../../clock/index.js';
import { AwsApiError, type AwsPort, type Tags } from '../ports/index.js';

/** EC2's documented limit for mutating actions: a bucket of 50 refilled at 5 per second. */
export const CreateTagsBucket = { size: 50, refillPerSecond: 5 };

interface Job {
  instanceId: string;
  tags: Tags;
  attempts: number;
}

/** The background tagger. */
export class InstanceTagger {
  private readonly port: AwsPort;
  private readonly clock: Clock;
  private readonly queue: Job[] = [];
  private tokens = CreateTagsBucket.size;
  private at: number;
  private draining = false;
  private waiting: (() => void) | undefined;
  /** Jobs that failed for good (for logs and tests). */
  readonly failures: Array<{ instanceId: string; error: string }> = [];

  constructor(input: { port: AwsPort; clock: Clock }) {
    this.port = input.port;
    this.clock = input.clock;
    this.at = input.clock.now();
  }

  /** Queues tags for an instance. */
  enqueue(instanceId: string, tags: Tags): void {
    this.queue.push({ instanceId, tags, attempts: 0 });
    if (!this.draining && !this.waiting) void this.drain();
  }

  /** Instances still waiting for their tags. */
  get pending(): number {
    return this.queue.length;
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(
      CreateTagsBucket.size,
      this.tokens + ((now - this.at) / 1000) * CreateTagsBucket.refillPerSecond,
    );
    this.at = now;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      for (let job = this.queue[0]; job; job = this.queue[0]) {
        this.refill();
        if (this.tokens < 1) return this.waitFor(((1 - this.tokens) / CreateTagsBucket.refillPerSecond) * 1000);
        this.tokens -= 1;
        this.queue.shift();
        const retryIn = await this.run(job);
        if (retryIn !== undefined) {
          this.queue.push(job);
          return this.waitFor(retryIn);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Runs one job; the back-off before retrying it, or undefined when done (or given up). */
  private async run(job: Job): Promise<number | undefined> {
    try {
      await this.port.createTags({ resourceIds: [job.instanceId], tags: job.tags });
      return undefined;
    } catch (e: unknown) {
      job.attempts++;
      if (AwsApiError.isKind(e, 'Throttled') && job.attempts < 8) return Math.min(30_000, 250 * 2 ** job.attempts);
      this.failures.push({ instanceId: job.instanceId, error: e instanceof Error ? e.message : String(e) });
      return undefined;
    }
  }

  private waitFor(ms: number): void {
    this.waiting = this.clock.setTimer(Math.ceil(ms), () => {
      this.waiting = undefined;
      void this.drain();
    });
  }
}
