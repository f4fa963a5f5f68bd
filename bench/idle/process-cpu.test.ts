import { describe, expect, it } from 'vitest';
import { cpuTicksFromStat } from './process-cpu.js';

describe('cpuTicksFromStat', () => {
  it('adds utime and stime, counting fields after a command name with spaces and parentheses', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime ...
    const stat = '4242 (node (tenon) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 731 112 5 6 20 0 11 0';
    expect(cpuTicksFromStat(stat)).toBe(843);
  });

  it('refuses a line that is not /proc/<pid>/stat', () => {
    expect(() => cpuTicksFromStat('not a stat line')).toThrow(/not a \/proc\/<pid>\/stat line/);
  });
});
