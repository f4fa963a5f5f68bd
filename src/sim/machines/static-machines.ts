/** A MachineSource held in memory: machines added and removed by hand (tests, hand-made playground nodes). */
import type { Machine, MachineState, MachineSource } from './machine.js';

/** Machines set by hand. */
export class StaticMachines implements MachineSource {
  private readonly machines = new Map<string, Machine>();
  private readonly listeners = new Set<() => void>();

  /** Starts with `initial`. */
  constructor(initial: readonly Machine[] = []) {
    for (const m of initial) this.machines.set(m.providerID, m);
  }

  /** Adds (or replaces) a machine. */
  add(m: Machine): void {
    this.machines.set(m.providerID, m);
    this.notify();
  }

  /** Moves a machine to another state (`terminated` keeps it listed, as EC2 does for a while). */
  setState(providerID: string, state: MachineState): void {
    const m = this.machines.get(providerID);
    if (!m) return;
    this.machines.set(providerID, { ...m, state });
    this.notify();
  }

  /** Forgets a machine entirely. */
  remove(providerID: string): void {
    if (this.machines.delete(providerID)) this.notify();
  }

  /** Every machine. */
  list(): Machine[] {
    return [...this.machines.values()];
  }

  /** One machine. */
  get(providerID: string): Machine | undefined {
    return this.machines.get(providerID);
  }

  /** Registers a change listener. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify(): void {
    for (const fn of this.listeners) fn();
  }
}
