/** The AWS SDK v3 adapter of the AWS port. */
import { createSdkClients, type SdkClientOptions } from './sdk-clients.js';
import { SdkAwsPort } from './sdk-aws-port.js';

export { createSdkClients, type SdkClientOptions, type SdkClients } from './sdk-clients.js';
export { SdkAwsPort } from './sdk-aws-port.js';

/** The production port: clients from the default chain; the region resolved from it unless given. */
export async function createSdkAwsPort(options: SdkClientOptions = {}): Promise<SdkAwsPort> {
  const clients = createSdkClients(options);
  const region = options.region ?? (await clients.ec2.config.region());
  return new SdkAwsPort(clients, region);
}
export { createSdkInterruptionQueue, SdkInterruptionQueue, ReceiveParameters } from './sqs-queue.js';
