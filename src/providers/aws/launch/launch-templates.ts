/**
 * Launch templates: one per distinct launch configuration (AMI, userData, security groups, profile, block
 * devices, metadata options, tags), named `karpenter.k8s.aws/<hash>` and shared by every NodeClaim that
 * needs it. A template unused for the TTL is deleted, and a class's templates are deleted with it.
 */
import type { Clock } from '../../../clock/index.js';
import { stableHash } from '../nodeclass/hash.js';
import { AwsApiError, type AwsPort, type LaunchTemplateInput } from '../ports/index.js';

/** Tag on every template Tenon creates: the cluster it belongs to. */
export const LaunchTemplateClusterTag = 'karpenter.k8s.aws/cluster';
/** Templates unused this long are deleted. */
export const LaunchTemplateTtlMs = 5 * 60_000;

/** Creates, reuses and garbage-collects launch templates. */
export class LaunchTemplateProvider {
  private readonly port: AwsPort;
  private readonly clock: Clock;
  private readonly known = new Map<string, Promise<void>>();
  private readonly expiry = new Map<string, () => void>();

  constructor(input: { port: AwsPort; clock: Clock }) {
    this.port = input.port;
    this.clock = input.clock;
  }

  /** The template's name for this configuration, creating the template once. */
  async ensure(input: Omit<LaunchTemplateInput, 'name'>): Promise<string> {
    const name = `karpenter.k8s.aws/${stableHash(input)}`;
    let ready = this.known.get(name);
    if (!ready) {
      ready = this.create({ ...input, name });
      this.known.set(name, ready);
      ready.catch(() => this.known.delete(name));
    }
    await ready;
    this.touch(name);
    return name;
  }

  /** Forgets a template (it was deleted behind Tenon's back); the next ensure recreates it. */
  invalidate(name: string): void {
    this.known.delete(name);
  }

  /** Deletes every template of the cluster carrying these tags (e.g. one EC2NodeClass's); returns their names. */
  async deleteTagged(clusterName: string, tags: Record<string, string>): Promise<string[]> {
    const filters = [
      { name: `tag:${LaunchTemplateClusterTag}`, values: [clusterName] },
      ...Object.entries(tags).map(([k, v]) => ({ name: `tag:${k}`, values: [v] })),
    ];
    const templates = await this.port.describeLaunchTemplates({ filters });
    for (const t of templates) await this.delete(t.name);
    return templates.map((t) => t.name);
  }

  private async create(input: LaunchTemplateInput): Promise<void> {
    try {
      await this.port.createLaunchTemplate(input);
    } catch (e: unknown) {
      // Another replica (or an earlier run) made it already: same name, same content.
      if (!AwsApiError.isKind(e, 'AlreadyExists')) throw e;
    }
  }

  private touch(name: string): void {
    this.expiry.get(name)?.();
    this.expiry.set(
      name,
      this.clock.setTimer(LaunchTemplateTtlMs, () => void this.expire(name)),
    );
  }

  private async expire(name: string): Promise<void> {
    this.expiry.delete(name);
    try {
      await this.delete(name);
    } catch {
      // Best effort: a template that cannot be deleted now is collected with its class.
    }
  }

  private async delete(name: string): Promise<void> {
    this.known.delete(name);
    this.expiry.get(name)?.();
    this.expiry.delete(name);
    try {
      await this.port.deleteLaunchTemplate(name);
    } catch (e: unknown) {
      if (!AwsApiError.isKind(e, 'NotFound')) throw e;
    }
  }
}
