/**
 * Wall time to simulated time and back, for a playground attached to a real cluster: the cluster stamps objects on
 * the wall clock while the playground's controllers measure ages on the simulated clock, which runs faster. The map
 * is piecewise-linear through the (wall, simulated) readings recorded as the run goes.
 */

/** Construction options of a WallTimeMap. */
export interface WallTimeMapOptions {
  /** Simulated ms per wall ms past the last reading while too few readings say otherwise (default 1). */
  pace?: number;
}

/** Wall time over which the pace past the last reading is measured. */
const paceWindowMs = 1_000;

const second = (ms: number): number => Math.floor(ms / 1000);

/** The piecewise-linear map between wall and simulated time through recorded readings; see the module comment. */
export class WallTimeMap {
  private readonly walls: number[] = [];
  private readonly sims: number[] = [];
  private readonly pace: number;
  private origin?: [number, number];

  /** An empty map: the identity until the first reading. */
  constructor(o: WallTimeMapOptions = {}) {
    this.pace = o.pace ?? 1;
  }

  /** How many readings are kept. */
  get size(): number {
    return this.walls.length;
  }

  /**
   * Records that the simulated clock read `sim` when the wall clock read `wall`. A reading that goes back on either
   * clock, or repeats the last wall instant, is ignored, so the map stays monotone.
   *
   * Only the first and the last reading of each wall second are kept. The cluster's timestamps have whole seconds,
   * and a timestamp of second T is mapped through the last reading before T and the first at or after it: neither
   * changes once T has been seen, so a timestamp maps to the same simulated time however often it is read.
   */
  record(wallMs: number, simMs: number): void {
    // Kept relative to the first reading: epoch milliseconds leave too few bits for steep segments' fractions.
    this.origin ??= [wallMs, simMs];
    const wall = wallMs - this.origin[0];
    const sim = simMs - this.origin[1];
    const n = this.walls.length;
    const lastWall = this.walls[n - 1] ?? Number.NEGATIVE_INFINITY;
    const lastSim = this.sims[n - 1] ?? Number.NEGATIVE_INFINITY;
    if (!(wall > lastWall) || sim < lastSim) return;
    const before = this.walls[n - 2];
    const sameSecond = (a: number, b: number): boolean => second(a + wallMs - wall) === second(b + wallMs - wall);
    if (before !== undefined && sameSecond(before, lastWall) && sameSecond(lastWall, wall)) {
      this.walls[n - 1] = wall;
      this.sims[n - 1] = sim;
      return;
    }
    this.walls.push(wall);
    this.sims.push(sim);
  }

  /** The simulated time at wall time `wall`: interpolated, the first reading's offset before it, the pace after. */
  toSim(wallMs: number): number {
    if (!this.origin) return wallMs;
    return this.origin[1] + this.relativeSim(wallMs - this.origin[0]);
  }

  /**
   * The wall time at simulated time `sim`: the earliest wall instant the simulated clock read it (simulated time
   * can stand still while wall time moves), the first reading's offset before it, the pace after the last.
   */
  toWall(simMs: number): number {
    if (!this.origin) return simMs;
    return this.origin[0] + this.relativeWall(simMs - this.origin[1]);
  }

  private relativeSim(wall: number): number {
    const n = this.walls.length;
    const firstWall = this.walls[0];
    const firstSim = this.sims[0];
    if (firstWall === undefined || firstSim === undefined) return wall;
    if (wall < firstWall) return wall + (firstSim - firstWall);
    const lastWall = this.walls[n - 1] as number;
    if (wall >= lastWall) return (this.sims[n - 1] as number) + (wall - lastWall) * this.recentPace();
    // The last reading at or before `wall`, then the line to the next one.
    const i = lastAtMost(this.walls, wall);
    return lerp(wall, [this.walls[i] as number, this.sims[i] as number], [this.walls[i + 1], this.sims[i + 1]]);
  }

  private relativeWall(sim: number): number {
    const n = this.walls.length;
    const firstWall = this.walls[0];
    const firstSim = this.sims[0];
    if (firstWall === undefined || firstSim === undefined) return sim;
    if (sim < firstSim) return sim - (firstSim - firstWall);
    const lastSim = this.sims[n - 1] as number;
    if (sim > lastSim) return (this.walls[n - 1] as number) + (sim - lastSim) / this.recentPace();
    const k = firstAtLeast(this.sims, sim);
    if (this.sims[k] === sim || k === 0) return this.walls[k] as number;
    return lerp(sim, [this.sims[k - 1] as number, this.walls[k - 1] as number], [this.sims[k], this.walls[k]]);
  }

  /** Simulated ms per wall ms over about the last second of readings; the configured pace when that says nothing. */
  private recentPace(): number {
    const n = this.walls.length;
    const lastWall = this.walls[n - 1] as number;
    const j = lastAtMost(this.walls, lastWall - paceWindowMs);
    if (j < 0) return this.pace;
    const pace = ((this.sims[n - 1] as number) - (this.sims[j] as number)) / (lastWall - (this.walls[j] as number));
    return pace > 0 ? pace : this.pace;
  }
}

/** y at x on the line through (x0, y0) and (x1, y1); y0 when there is no second point or it is at x0. */
function lerp(x: number, [x0, y0]: [number, number], [x1, y1]: [number | undefined, number | undefined]): number {
  if (x1 === undefined || y1 === undefined || x1 === x0) return y0;
  return y0 + ((x - x0) * (y1 - y0)) / (x1 - x0);
}

/** Index of the last element ≤ x in ascending `xs`, or -1. */
function lastAtMost(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Index of the first element ≥ x in ascending `xs` (xs.length when none). */
function firstAtLeast(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
