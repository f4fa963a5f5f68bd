import { describe, expect, it } from 'vitest';
import { ControllerLog } from './controller-log.js';

describe('ControllerLog', () => {
  it('keeps the last maxLines complete lines, stamped when they arrive', () => {
    let now = 1_000;
    const log = new ControllerLog({ now: () => now, maxLines: 10 });
    for (let i = 0; i < 30; i++) {
      now += 1;
      log.write(`line ${i}\n`);
    }
    expect(log.lines().map((l) => l.text)).toEqual(Array.from({ length: 10 }, (_x, i) => `line ${i + 20}`));
    expect(log.lines()[0]?.timeMs).toBe(1_021);
  });

  it('holds a partial line until its newline and sends each complete line to followers until they stop', () => {
    const log = new ControllerLog({ now: () => 5 });
    const seen: string[] = [];
    const stop = log.follow((l) => seen.push(l.text));
    log.write('{"a":');
    expect(log.lines()).toHaveLength(0);
    log.write('1}\n{"b":2}\n');
    stop();
    log.write('{"c":3}\n');
    expect(seen).toEqual(['{"a":1}', '{"b":2}']);
    expect(log.lines().map((l) => l.text)).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });
});
