/** The simulated world of the playground: clock, machines, agents and the World that runs them. */
export { SimClock, trackTransport, type SimClockOptions, type RunOptions } from './clock/index.js';
export type { Machine, MachineSource, MachineState } from './machines/machine.js';
export { StaticMachines } from './machines/static-machines.js';
export { FakeProviderMachines, type FakeProviderMachinesOptions } from './machines/fake-provider-machines.js';
export { SimEc2Machines, familyOfImage } from './machines/sim-ec2-machines.js';
export { World, type WorldOptions, type AgentName } from './world/world.js';
export { KubeletFleet, type MachineMatch } from './kubelet/fleet.js';
export { defaultKubeletTimings, type KubeletTimings } from './kubelet/timings.js';
export { ExitCodeAnnotation, JobDefaultRunSeconds, RunSecondsAnnotation } from './kubelet/pod-status.js';
export { SimResources } from './world/resources.js';
