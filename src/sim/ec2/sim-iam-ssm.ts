/** The IAM, SSM and Pricing operations of the simulated account. */
import type { InstanceProfileInfo, IamApi, PricingApi, SsmApi, Tags } from '../../providers/aws/ports/index.js';
import { AwsApiError } from '../../providers/aws/ports/index.js';
import { SimAccount, SimAccountId, type SimEc2Options } from './account.js';

/** IAM instance profiles and roles, SSM parameters and Pricing of a simulated account. */
export class SimIamSsm implements IamApi, SsmApi, PricingApi {
  /** The account's state; tests and the playground may read it. */
  readonly account: SimAccount;

  constructor(options: SimEc2Options) {
    this.account = new SimAccount(options);
  }

  /** The region the account lives in. */
  get region(): string {
    return this.account.region;
  }

  /** Values of the parameters that exist. */
  async getParameters(names: string[]): Promise<Record<string, string>> {
    this.account.call('GetParameters');
    if (names.length > 10) throw new AwsApiError('ValidationException', 'GetParameters takes at most 10 names');
    const out: Record<string, string> = {};
    for (const n of names) {
      if (!this.account.parameters.has(n)) this.account.publishPinnedRelease(n);
      const v = this.account.parameters.get(n);
      if (v !== undefined) out[n] = v;
    }
    return out;
  }

  /** The profile, or undefined. */
  async getInstanceProfile(name: string): Promise<InstanceProfileInfo | undefined> {
    this.account.call('GetInstanceProfile');
    const p = this.account.profiles.get(name);
    return p ? { ...p, roles: [...p.roles], tags: { ...p.tags } } : undefined;
  }

  /** Creates a profile; EntityAlreadyExists when the name is taken. */
  async createInstanceProfile(input: { name: string; path?: string; tags: Tags }): Promise<InstanceProfileInfo> {
    this.account.call('CreateInstanceProfile');
    if (this.account.profiles.has(input.name))
      throw new AwsApiError('EntityAlreadyExists', `Instance Profile ${input.name} already exists.`);
    const profile = {
      name: input.name,
      arn: `arn:aws:iam::${SimAccountId}:instance-profile${input.path ?? '/'}${input.name}`,
      roles: [],
      tags: { ...input.tags },
    };
    this.account.profiles.set(input.name, profile);
    return { ...profile, roles: [] };
  }

  /** Adds a role; NoSuchEntity for an unknown profile or role, LimitExceeded when the profile has one. */
  async addRoleToInstanceProfile(input: { name: string; role: string }): Promise<void> {
    this.account.call('AddRoleToInstanceProfile');
    const p = this.account.profiles.get(input.name);
    if (!p) throw new AwsApiError('NoSuchEntity', `Instance Profile ${input.name} cannot be found.`);
    if (!this.account.roles.has(input.role))
      throw new AwsApiError('NoSuchEntity', `The role with name ${input.role} cannot be found.`);
    if (p.roles.length > 0)
      throw new AwsApiError('LimitExceeded', 'Cannot exceed quota for InstanceSessionsPerInstanceProfile: 1');
    p.roles.push(input.role);
  }

  /** Removes a role from a profile. */
  async removeRoleFromInstanceProfile(input: { name: string; role: string }): Promise<void> {
    this.account.call('RemoveRoleFromInstanceProfile');
    const p = this.account.profiles.get(input.name);
    if (!p || !p.roles.includes(input.role))
      throw new AwsApiError('NoSuchEntity', `Role ${input.role} is not in ${input.name}.`);
    p.roles = p.roles.filter((r) => r !== input.role);
  }

  /** Deletes a profile; DeleteConflict while it still has a role. */
  async deleteInstanceProfile(name: string): Promise<void> {
    this.account.call('DeleteInstanceProfile');
    const p = this.account.profiles.get(name);
    if (!p) throw new AwsApiError('NoSuchEntity', `Instance Profile ${name} cannot be found.`);
    if (p.roles.length > 0)
      throw new AwsApiError('DeleteConflict', 'Cannot delete entity, must remove roles from instance profile first.');
    this.account.profiles.delete(name);
  }

  /** On-demand prices of the catalog (types without a public price are absent). */
  async getOnDemandPrices(region: string): Promise<Record<string, number>> {
    this.account.call('GetProducts');
    if (region !== this.account.region) return {};
    const out: Record<string, number> = {};
    for (const e of this.account.catalog) if (e.onDemandPriceUSD !== null) out[e.name] = e.onDemandPriceUSD;
    return out;
  }
}
