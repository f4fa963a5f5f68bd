/**
 * A simulated SQS queue behind the interruption queue port, on the injected clock: long polls wait up to 20 s
 * for a message, a received message is hidden for its 20-second visibility timeout and comes back unless it is
 * deleted, and a stale receipt handle deletes nothing (as SQS behaves after the message was received again).
 */
import type { Clock } from '../../clock/index.js';
import type { InterruptionQueuePort, QueueMessage } from '../../providers/aws/ports/index.js';

/** SQS's long-poll wait and visibility timeout as Karpenter asks for them, and its batch size. */
const waitMs = 20_000;
const visibilityMs = 20_000;
const maxBatch = 10;

interface Stored {
  messageId: string;
  body: string;
  visibleAt: number;
  receiptHandle?: string;
}

interface Waiter {
  resolve: (m: QueueMessage[]) => void;
  cancelTimer: () => void;
}

/** One simulated queue (see the module comment). */
export class SimQueue implements InterruptionQueuePort {
  private readonly messages: Stored[] = [];
  private readonly waiters = new Set<Waiter>();
  private seq = 0;

  /** An empty queue named `name`. */
  constructor(
    private readonly clock: Clock,
    readonly name: string,
  ) {}

  /** Sends a message (what EventBridge does for a matching event). */
  send(body: string): void {
    this.messages.push({ messageId: `msg-${++this.seq}`, body, visibleAt: this.clock.now() });
    this.wake();
  }

  /** Messages on the queue, visible or in flight. */
  depth(): number {
    return this.messages.length;
  }

  /** Long-polls (see InterruptionQueuePort). */
  receive(signal?: AbortSignal): Promise<QueueMessage[]> {
    const now = this.take();
    if (now.length || signal?.aborted) return Promise.resolve(now);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve: (m) => {
          this.waiters.delete(waiter);
          waiter.cancelTimer();
          signal?.removeEventListener('abort', onAbort);
          resolve(m);
        },
        cancelTimer: () => undefined,
      };
      const onAbort = (): void => waiter.resolve([]);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
      this.arm(waiter);
    });
  }

  /** Deletes the message this receipt handle was given for; a stale handle deletes nothing. */
  async delete(message: QueueMessage): Promise<void> {
    const i = this.messages.findIndex((m) => m.receiptHandle === message.receiptHandle);
    if (i >= 0) this.messages.splice(i, 1);
  }

  /** Visible messages, now hidden for the visibility timeout under a fresh receipt handle. */
  private take(): QueueMessage[] {
    const now = this.clock.now();
    const out: QueueMessage[] = [];
    for (const m of this.messages) {
      if (out.length === maxBatch) break;
      if (m.visibleAt > now) continue;
      m.visibleAt = now + visibilityMs;
      m.receiptHandle = `${m.messageId}/${++this.seq}`;
      out.push({ messageId: m.messageId, receiptHandle: m.receiptHandle, body: m.body });
    }
    return out;
  }

  /** Wakes the waiter at the end of its poll, or earlier when an in-flight message becomes visible again. */
  private arm(waiter: Waiter): void {
    const now = this.clock.now();
    const returning = Math.min(...this.messages.map((m) => m.visibleAt - now), waitMs);
    waiter.cancelTimer = this.clock.setTimer(Math.max(0, returning), () => waiter.resolve(this.take()));
  }

  private wake(): void {
    for (const w of [...this.waiters]) {
      const got = this.take();
      if (!got.length) return;
      w.resolve(got);
    }
  }
}
