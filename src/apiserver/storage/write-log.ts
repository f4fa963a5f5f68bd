/**
 * The append-only log beside a state file (`FILE.log`): one JSON line per committed change, written and fsynced
 * before the answer to the client's write leaves the server, so a write that was acknowledged survives kill -9.
 * Changes of one moment share one fsync (group commit). A snapshot compacts it: the log is moved aside to
 * `FILE.log.old` when the snapshot is captured, and removed once the snapshot is safely renamed into place. A start
 * loads the snapshot, then replays `FILE.log.old` and `FILE.log` past the snapshot's resourceVersion.
 */
import fs from 'node:fs';

/** One line of the log: an object as stored after a change, or the storage key of one deleted. */
export interface LogRecord {
  rv: number;
  /** `group/version/plural`, as in the state file. */
  resource: string;
  object?: unknown;
  deleted?: { key: string };
}

/** The log that goes with a state file, and the one a compaction moved aside. */
export function logFilesOf(stateFile: string): { current: string; old: string } {
  return { current: `${stateFile}.log`, old: `${stateFile}.log.old` };
}

/** The records of a log file, oldest first; a last line cut short by a crash is ignored (it was never acknowledged). */
export function readLog(file: string): LogRecord[] {
  if (!fs.existsSync(file)) return [];
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const out: LogRecord[] = [];
  for (const [i, text] of lines.entries()) {
    if (!text.trim()) continue;
    try {
      out.push(JSON.parse(text) as LogRecord);
    } catch (e: unknown) {
      if (i >= lines.length - 2) break;
      throw new Error(`${file}: line ${i + 1} is not JSON; the log is corrupt`, { cause: e });
    }
  }
  return out;
}

/** Appends records to the log file; `flush` makes every record appended so far durable. */
export class WriteLog {
  private fd: number;
  private pending: Buffer[] = [];
  private flushing: Promise<void> | undefined;
  private scheduled = false;

  /** Opens (or creates, 0600) the log for appending; `onError` hears of a background flush that failed. */
  constructor(
    private readonly files: { current: string; old: string },
    private readonly onError: (e: unknown) => void,
  ) {
    this.fd = fs.openSync(files.current, 'a', 0o600);
  }

  /** Queues one record; it is written in the background soon after, and at once by `flush`. */
  append(line: Buffer): void {
    this.pending.push(line);
    if (this.scheduled) return;
    // Writes of in-process clients are not waited for, but they must not pile up in memory either.
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush().catch(this.onError);
    });
  }

  /** Resolves once every record appended before the call is written and fsynced. */
  flush(): Promise<void> {
    if (this.flushing) {
      // A flush is under way: one more after it covers everything appended meanwhile.
      return this.flushing.then(() => this.flush());
    }
    if (this.pending.length === 0) return Promise.resolve();
    this.flushing = this.writeOut().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async writeOut(): Promise<void> {
    const batch = Buffer.concat(this.pending);
    this.pending = [];
    const fd = this.fd;
    await new Promise<void>((resolve, reject) =>
      fs.write(fd, batch, (e) => (e ? reject(e) : fs.fdatasync(fd, (e2) => (e2 ? reject(e2) : resolve())))),
    );
  }

  /**
   * Moves the log aside for a snapshot taken now: what follows goes to a fresh log. Call `compacted` once the
   * snapshot is in place.
   */
  async rotate(): Promise<void> {
    await this.flush();
    fs.closeSync(this.fd);
    // An earlier compaction that did not finish: its records are older, and appended first.
    if (fs.existsSync(this.files.old)) fs.appendFileSync(this.files.old, fs.readFileSync(this.files.current));
    else fs.renameSync(this.files.current, this.files.old);
    this.fd = fs.openSync(this.files.current, 'w', 0o600);
  }

  /** The snapshot holds everything the moved-aside log did: it goes. */
  compacted(): void {
    fs.rmSync(this.files.old, { force: true });
  }

  /** Writes what is pending and closes the file. */
  async close(): Promise<void> {
    await this.flush();
    fs.closeSync(this.fd);
  }
}
