/** Flags of `npm run bench -- peer`. */
import { defaultDiverseSizes, preferencePods, workloadFamilies } from './peer-workloads.js';

/** Parsed flags. */
export interface PeerArgs {
  json: boolean;
  help: boolean;
  sizes: number[] | undefined;
  rounds: number;
  families: string[];
  seed: number;
}

/** The usage text. */
export const peerHelp = `npm run bench -- peer [--sizes 1000,5000,20000] [--rounds N] [--workloads diverse,preferences,cost] [--seed N] [--json]

Karpenter's own provisioning scheduler (sigs.k8s.io/karpenter v1.15.0 with its fake cloud provider, the Go program
in bench/peer, built once with "nice go build" and cached at ~/.cache/tenon/bin/peer-<hash>) and Tenon's solver on
identical inputs: each workload is written to one JSON file (Tenon's SchedulingInput) that the Go program reads.
Workloads:
  diverse      Karpenter's benchmark mix as in v1.15 (5 kinds, zone self-affinity, a NodePool with limits) over
               fake.InstanceTypes(400), at --sizes (default ${defaultDiverseSizes.join(',')}).
  preferences  BenchmarkRespectPreferences / BenchmarkIgnorePreferences: ${preferencePods} pods under each policy.
  cost         The cost suite's workloads on the real EC2 catalog (all but existing-nodes, which would need
               Karpenter's cluster state).
Each round runs both sides once per workload, alternating which goes first (default 3 rounds). Karpenter: a fresh
scheduler per run, one warm-up Solve in the process below 2,000 pods, then one timed Solve (as its benchmark, scheduler set-up
excluded); CPU time from getrusage over the Solve (its 5 concurrent reconciles and the Go GC included). Tenon: one
warm-up solve per workload, then a timed solve per round in this process; CPU time from process.cpuUsage.
Columns: pods/s (wall) and pods per CPU-second per side, cpuRatio / wallRatio = Tenon's rate over Karpenter's
(medians over rounds), NodeClaims, cost (hourly, each NodeClaim at its cheapest allowed offering) and unscheduled
pods (the worst round). Exit status 1 when Tenon leaves a pod unscheduled that Karpenter places.
`;

function list(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Parses the flags; throws one line naming the flag on a bad one. */
export function peerArgs(args: readonly string[]): PeerArgs {
  const out: PeerArgs = {
    json: false,
    help: false,
    sizes: undefined,
    rounds: 3,
    families: [...workloadFamilies],
    seed: 42,
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => inline ?? args[++i] ?? '';
    if (flag === '--json') out.json = true;
    else if (flag === '--help' || flag === '-h') out.help = true;
    else if (flag === '--sizes') out.sizes = list(value()).map(Number);
    else if (flag === '--rounds') out.rounds = Number(value());
    else if (flag === '--workload' || flag === '--workloads') out.families = list(value());
    else if (flag === '--seed') out.seed = Number(value());
    else throw new Error(`unknown flag ${a}`);
  }
  if (out.sizes?.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--sizes takes positive integers');
  if (!Number.isInteger(out.rounds) || out.rounds < 1) throw new Error('--rounds takes a positive integer');
  if (!Number.isFinite(out.seed)) throw new Error('--seed takes a number');
  const unknown = out.families.filter((f) => !(workloadFamilies as readonly string[]).includes(f));
  if (unknown.length > 0)
    throw new Error(`--workloads: unknown ${unknown.join(', ')}; known: ${workloadFamilies.join(', ')}`);
  return out;
}
