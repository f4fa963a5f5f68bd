/** Builds the SDK v3 clients: region and credentials from the default chain, the standard retry strategy. */
import { EC2Client } from '@aws-sdk/client-ec2';
import { IAMClient } from '@aws-sdk/client-iam';
import { PricingClient } from '@aws-sdk/client-pricing';
import { SSMClient } from '@aws-sdk/client-ssm';

/** The four clients the adapter calls. */
export interface SdkClients {
  ec2: EC2Client;
  ssm: SSMClient;
  iam: IAMClient;
  pricing: PricingClient;
}

/** Options of `createSdkClients`; everything defaults to the SDK's default chain. */
export interface SdkClientOptions {
  region?: string;
  /** Attempts per call including the first (SDK standard retry mode). Default 3. */
  maxAttempts?: number;
}

/**
 * The clients for `options.region` (or the default chain's region). The Pricing API lives only in a few
 * regions; us-east-1 serves every region's prices.
 */
export function createSdkClients(options: SdkClientOptions = {}): SdkClients {
  const common = {
    ...(options.region === undefined ? {} : { region: options.region }),
    retryMode: 'standard',
    maxAttempts: options.maxAttempts ?? 3,
  };
  return {
    ec2: new EC2Client(common),
    ssm: new SSMClient(common),
    iam: new IAMClient(common),
    pricing: new PricingClient({ ...common, region: 'us-east-1' }),
  };
}
