/** The controllers' log as the `controller` container of the `tenon` pod: a bounded buffer the API server serves. */
import type { ContainerLog, PodLogLine } from '../../apiserver/index.js';
import type { LogTarget } from './log-sink.js';

/** Lines kept by default: hours of an idle playground, minutes of a busy one; older lines stay in the log file. */
export const defaultControllerLogLines = 20_000;

/** The last `maxLines` complete lines written, each stamped with the time it arrived; followers get new ones. */
export class ControllerLog implements ContainerLog, LogTarget {
  private readonly kept: PodLogLine[] = [];
  private readonly followers = new Set<(line: PodLogLine) => void>();
  private partial = '';

  constructor(private readonly opts: { now(): number; maxLines?: number }) {}

  write(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    const timeMs = this.opts.now();
    for (const part of parts) {
      const line = { timeMs, text: part };
      this.kept.push(line);
      for (const f of this.followers) f(line);
    }
    const max = this.opts.maxLines ?? defaultControllerLogLines;
    // Trimmed in batches, so a full buffer does not move every line for each new one.
    if (this.kept.length > max + Math.ceil(max / 8)) this.kept.splice(0, this.kept.length - max);
  }

  lines(): readonly PodLogLine[] {
    const max = this.opts.maxLines ?? defaultControllerLogLines;
    return this.kept.length > max ? this.kept.slice(this.kept.length - max) : this.kept;
  }

  follow(fn: (line: PodLogLine) => void): () => void {
    this.followers.add(fn);
    return () => this.followers.delete(fn);
  }
}
