/** The IAM and Pricing half of the SDK adapter. */
import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  DeleteInstanceProfileCommand,
  GetInstanceProfileCommand,
  RemoveRoleFromInstanceProfileCommand,
  type InstanceProfile,
} from '@aws-sdk/client-iam';
import { paginateGetProducts } from '@aws-sdk/client-pricing';
import { AwsApiError, toAwsApiError } from '../errors.js';
import type { InstanceProfileInfo, Tags } from '../types.js';
import { fromTags } from './ec2-mappers.js';
import { parsePriceDocument } from './pricing-parser.js';
import type { SdkClients } from './sdk-clients.js';

function fromProfile(p: InstanceProfile | undefined, name: string): InstanceProfileInfo {
  return {
    name: p?.InstanceProfileName ?? name,
    arn: p?.Arn ?? '',
    roles: (p?.Roles ?? []).map((r) => r.RoleName ?? ''),
    tags: fromTags(p?.Tags?.map((t) => ({ Key: t.Key, Value: t.Value }))),
  };
}

async function wrap<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e: unknown) {
    throw toAwsApiError(e);
  }
}

/** The Pricing regions' names for the region codes (GetProducts filters on `regionCode`). */
const pricingFilters = (region: string): Array<{ Type: 'TERM_MATCH'; Field: string; Value: string }> => [
  { Type: 'TERM_MATCH', Field: 'regionCode', Value: region },
  { Type: 'TERM_MATCH', Field: 'operatingSystem', Value: 'Linux' },
  { Type: 'TERM_MATCH', Field: 'tenancy', Value: 'Shared' },
  { Type: 'TERM_MATCH', Field: 'preInstalledSw', Value: 'NA' },
  { Type: 'TERM_MATCH', Field: 'capacitystatus', Value: 'Used' },
];

/** IAM instance profiles and Pricing GetProducts over the SDK. */
export class SdkIamPricing {
  protected readonly clients: SdkClients;
  constructor(clients: SdkClients) {
    this.clients = clients;
  }

  /** The profile, or undefined when IAM says NoSuchEntity. */
  async getInstanceProfile(name: string): Promise<InstanceProfileInfo | undefined> {
    try {
      const out = await wrap(() => this.clients.iam.send(new GetInstanceProfileCommand({ InstanceProfileName: name })));
      return fromProfile(out.InstanceProfile, name);
    } catch (e: unknown) {
      if (AwsApiError.isKind(e, 'NotFound')) return undefined;
      throw e;
    }
  }

  /** Creates a profile. */
  async createInstanceProfile(input: { name: string; path?: string; tags: Tags }): Promise<InstanceProfileInfo> {
    const out = await wrap(() =>
      this.clients.iam.send(
        new CreateInstanceProfileCommand({
          InstanceProfileName: input.name,
          Path: input.path ?? '/',
          Tags: Object.entries(input.tags).map(([Key, Value]) => ({ Key, Value })),
        }),
      ),
    );
    return fromProfile(out.InstanceProfile, input.name);
  }

  /** Adds a role to a profile. */
  async addRoleToInstanceProfile(input: { name: string; role: string }): Promise<void> {
    await wrap(() =>
      this.clients.iam.send(
        new AddRoleToInstanceProfileCommand({ InstanceProfileName: input.name, RoleName: input.role }),
      ),
    );
  }

  /** Removes a role from a profile. */
  async removeRoleFromInstanceProfile(input: { name: string; role: string }): Promise<void> {
    await wrap(() =>
      this.clients.iam.send(
        new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: input.name, RoleName: input.role }),
      ),
    );
  }

  /** Deletes a profile. */
  async deleteInstanceProfile(name: string): Promise<void> {
    await wrap(() => this.clients.iam.send(new DeleteInstanceProfileCommand({ InstanceProfileName: name })));
  }

  /** On-demand Linux prices of the region from GetProducts (AmazonEC2), paged through. */
  async getOnDemandPrices(region: string): Promise<Record<string, number>> {
    return wrap(async () => {
      const out: Record<string, number> = {};
      const pages = paginateGetProducts(
        { client: this.clients.pricing },
        { ServiceCode: 'AmazonEC2', Filters: pricingFilters(region) },
      );
      for await (const page of pages) {
        for (const doc of page.PriceList ?? []) {
          const parsed = parsePriceDocument(String(doc));
          if (parsed !== undefined) out[parsed.instanceType] = parsed.price;
        }
      }
      return out;
    });
  }
}
