/** A MachineSource held in memory: machines added and removed by hand (tests, hand-made playground nodes). */
import { MapMachineSource, type Machine, type MachineState } from './machine.js';

/** Machines set by hand. */
export class StaticMachines extends MapMachineSource {
  /** Starts with `initial`. */
  constructor(initial: readonly Machine[] = []) {
    super();
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
}
