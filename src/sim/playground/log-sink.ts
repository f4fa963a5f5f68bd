/** Where a playground's controller log lines go: every target gets every line (a file, the terminal, the tenon pod). */
import { Writable } from 'node:stream';

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
