import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

describe('the logger', () => {
  it("writes Karpenter's JSON shape: level word, time, logger, message, and the fields given", () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const log = createLogger({ level: 'info', destination });
    log.info({ controller: 'nodeclaim.lifecycle', NodeClaim: { name: 'default-abc' } }, 'launched nodeclaim');
    log.debug('not written at info');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'INFO',
      logger: 'controller',
      message: 'launched nodeclaim',
      controller: 'nodeclaim.lifecycle',
      NodeClaim: { name: 'default-abc' },
    });
    expect(String(line.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
