/** AWS provider IDs: `aws:///<zone>/<instance-id>`. */

/** The provider ID of an instance. */
export function providerIdOf(zone: string, instanceId: string): string {
  return `aws:///${zone}/${instanceId}`;
}

/** The instance id in a provider ID; undefined when it is not an AWS provider ID. */
export function instanceIdOf(providerID: string): string | undefined {
  const m = /^aws:\/\/\/[^/]*\/(i-[0-9a-z]+)$/.exec(providerID);
  return m?.[1];
}
