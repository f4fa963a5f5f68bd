/**
 * The state of one simulated AWS account and region, and the IAM, SSM and Pricing halves of the port.
 * SimEc2 adds the EC2 operations on top.
 */
import type { Clock } from '../../clock/index.js';
import type {
  InstanceProfileInfo,
  LaunchTemplateInput,
  PlacementGroupInfo,
  Tags,
} from '../../providers/aws/ports/index.js';
import { AwsApiError } from '../../providers/aws/ports/index.js';
import { publishRelease, type SimImage } from './amis.js';
import { SimCapacityReservations } from './capacity-reservations.js';
import { loadCatalog, toInstanceTypeInfo, type CatalogEntry } from './catalog.js';
import { InstanceStore, defaultTimings, type InstanceTimings, type SimInstance } from './instances.js';
import { SimMarket } from './market.js';
import { buildNetwork, type SimNetwork } from './network.js';
import { SeededRandom, hash32 } from './random.js';
import { RateLimiter, type RateLimit, type SimAction } from './rate-limits.js';

/** The account id of the simulated account (owner `self`). */
export const SimAccountId = '123456789012';

/** Construction options of the simulated EC2. */
export interface SimEc2Options {
  /** Everything random (ids, zone offerings, spot prices) follows from it. Default 1. */
  seed?: number;
  clock: Clock;
  region?: string;
  /** Zone names, or how many zones (3–6) to make in the region. Default 3. */
  zones?: string[] | number;
  /** The cluster the VPC's discovery tags name. Default `tenon`. */
  clusterName?: string;
  /** Kubernetes versions AMIs are published for. Default 1.30–1.34. */
  kubernetesVersions?: string[];
  /** Catalog entries to offer instead of the shipped catalog (tests use a few). */
  catalog?: CatalogEntry[];
  /** Instances per capacity pool before it runs out. Default 10,000. */
  poolSize?: number;
  /** Share of (type, zone) pairs offered beyond the first zone. Default 0.9. */
  zoneAvailability?: number;
  timings?: Partial<InstanceTimings>;
  rateLimits?: Partial<Record<SimAction, RateLimit>>;
  /** Roles that exist in IAM. Default `KarpenterNodeRole-<cluster>`. */
  roles?: string[];
}

/** A launch template as the account stores it. */
export interface SimLaunchTemplate extends LaunchTemplateInput {
  launchTemplateId: string;
  createdAt: number;
}

const amiReleases = ['v20250301', 'v20250401', 'v20250501'];

function zoneNames(region: string, zones: string[] | number | undefined): string[] {
  if (Array.isArray(zones)) return zones;
  const n = Math.min(6, Math.max(3, zones ?? 3));
  return 'abcdef'
    .slice(0, n)
    .split('')
    .map((letter) => `${region}${letter}`);
}

/** The account: network, images, parameters, catalog, market, instances, templates, IAM, and the throttle. */
export class SimAccount {
  readonly region: string;
  readonly clock: Clock;
  readonly seed: number;
  readonly clusterName: string;
  readonly zones: string[];
  readonly kubernetesVersions: string[];
  readonly random: SeededRandom;
  readonly network: SimNetwork;
  readonly images: SimImage[] = [];
  readonly parameters = new Map<string, string>();
  readonly catalog: CatalogEntry[];
  readonly market: SimMarket;
  readonly instances: InstanceStore;
  readonly launchTemplates = new Map<string, SimLaunchTemplate>();
  /** Placement groups by id. */
  readonly placementGroups = new Map<string, PlacementGroupInfo>();
  readonly capacityReservations = new SimCapacityReservations();
  readonly profiles = new Map<string, InstanceProfileInfo>();
  readonly roles: Set<string>;
  readonly limiter: RateLimiter;
  /** Calls still to throttle per action (fault injection); `all` applies to every action. */
  readonly forcedThrottles = new Map<SimAction | 'all', number>();
  private releaseCount = 0;
  private readonly publishedReleases = new Set<string>();

  constructor(o: SimEc2Options) {
    this.clock = o.clock;
    this.seed = o.seed ?? 1;
    this.region = o.region ?? 'us-east-1';
    this.clusterName = o.clusterName ?? 'tenon';
    this.zones = zoneNames(this.region, o.zones);
    this.kubernetesVersions = o.kubernetesVersions ?? ['1.30', '1.31', '1.32', '1.33', '1.34'];
    this.random = new SeededRandom(this.seed);
    this.network = buildNetwork({
      clusterName: this.clusterName,
      region: this.region,
      zones: this.zones,
      random: this.random,
    });
    this.catalog = o.catalog ?? loadCatalog();
    const prices = new Map<string, number>();
    for (const e of this.catalog) if (e.onDemandPriceUSD !== null) prices.set(e.name, e.onDemandPriceUSD);
    this.market = new SimMarket({
      seed: this.seed,
      onDemandPrices: prices,
      defaultPoolSize: o.poolSize ?? 10_000,
      zoneAvailability: o.zoneAvailability ?? 0.9,
    });
    this.instances = new InstanceStore({
      clock: this.clock,
      timings: { ...defaultTimings, ...o.timings },
      onTerminated: (i: SimInstance) =>
        i.capacityReservationId === undefined
          ? this.market.release({ instanceType: i.instanceType, zone: i.zone, capacityType: i.capacityType })
          : this.capacityReservations.release(i.capacityReservationId),
    });
    this.roles = new Set(o.roles ?? [`KarpenterNodeRole-${this.clusterName}`]);
    this.limiter = new RateLimiter(this.clock, o.rateLimits);
    for (const release of amiReleases) this.publishAmiRelease(release);
  }

  /** Publishes a new AMI release for every family, architecture and version and points the aliases at it. */
  publishAmiRelease(release?: string): string {
    this.releaseCount++;
    const name = release ?? `v2025${String(5 + this.releaseCount - amiReleases.length).padStart(2, '0')}01`;
    const createdAt = new Date(
      this.clock.now() - (amiReleases.length - this.releaseCount) * 30 * 86_400_000,
    ).toISOString();
    this.publishedReleases.add(name);
    const out = publishRelease({ release: name, versions: this.kubernetesVersions, random: this.random, createdAt });
    this.images.push(...out.images);
    for (const [k, v] of Object.entries(out.parameters)) this.parameters.set(k, v);
    return name;
  }

  /**
   * Publishes, on first demand, the older EKS release a pinned alias parameter names (`al2023@v20240625`):
   * SSM keeps every past release, the simulated account only those it launched with until one is asked for.
   * Its images and pinned parameters only (the aliases' latest stays); releases after today do not exist, nor
   * ones older than the three years the simulated account keeps.
   */
  publishPinnedRelease(parameterName: string): void {
    const release = parameterName.match(/^\/aws\/service\/eks\/optimized-ami\/.*-(v(\d{4})(\d{2})(\d{2}))\/image_id$/);
    if (!release || this.publishedReleases.has(release[1] ?? '')) return;
    const [, name = '', y, m, d] = release;
    const date = Date.UTC(Number(y), Number(m) - 1, Number(d));
    const now = this.clock.now();
    if (!Number.isFinite(date) || date > now || date < now - 3 * 365 * 86_400_000) return;
    this.publishedReleases.add(name);
    const out = publishRelease({
      release: name,
      versions: this.kubernetesVersions,
      random: new SeededRandom(hash32(this.seed, name)),
      createdAt: new Date(date).toISOString(),
    });
    this.images.push(...out.images);
    for (const [k, v] of Object.entries(out.parameters)) if (k.includes(name)) this.parameters.set(k, v);
  }

  /** Applies the rate limit and injected throttles for one call; throws RequestLimitExceeded when throttled. */
  call(action: SimAction): void {
    for (const key of [action, 'all'] as const) {
      const left = this.forcedThrottles.get(key) ?? 0;
      if (left > 0) {
        this.forcedThrottles.set(key, left - 1);
        this.limiter.throttled.set(action, (this.limiter.throttled.get(action) ?? 0) + 1);
        throw new AwsApiError('RequestLimitExceeded', 'Request limit exceeded.');
      }
    }
    if (!this.limiter.take(action)) throw new AwsApiError('RequestLimitExceeded', 'Request limit exceeded.');
  }

  /** The DescribeInstanceTypes facts of the catalog (built once). */
  instanceTypeInfos = (() => {
    let cache: ReturnType<typeof toInstanceTypeInfo>[] | undefined;
    return (): ReturnType<typeof toInstanceTypeInfo>[] => (cache ??= this.catalog.map(toInstanceTypeInfo));
  })();

  /** A fresh resource id. */
  newId(prefix: string): string {
    return `${prefix}-${this.random.hex(17)}`;
  }

  /** Tags as a copy. */
  static copyTags(tags: Tags): Tags {
    return { ...tags };
  }
}
