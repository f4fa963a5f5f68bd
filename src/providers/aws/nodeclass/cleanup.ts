/** Cleanup when an EC2NodeClass is deleted: its launch templates and the instance profile Tenon created for it. */
import { Labels, type EC2NodeClass } from '../../../api/index.js';
import type { LaunchTemplateProvider } from '../launch/launch-templates.js';
import { AwsApiError, type AwsPort } from '../ports/index.js';
import { ProfileNodeClassTag, managedProfileName } from './instance-profile.js';
import { nameOf, specOf } from './settings.js';

/** What cleanup removed. */
export interface NodeClassCleanup {
  launchTemplates: string[];
  instanceProfile?: string;
}

/**
 * Deletes the class's launch templates and, when the class uses `spec.role`, the instance profile Tenon
 * made for it (never a user's `spec.instanceProfile`). Safe to repeat; for the EC2NodeClass finalizer.
 */
export async function cleanupNodeClass(input: {
  port: AwsPort;
  templates: LaunchTemplateProvider;
  clusterName: string;
  nodeClass: EC2NodeClass;
}): Promise<NodeClassCleanup> {
  const { port, templates, clusterName, nodeClass } = input;
  const name = nameOf(nodeClass);
  const launchTemplates = await templates.deleteTagged(clusterName, { [Labels.ec2NodeClass]: name });
  if (specOf(nodeClass).role === undefined) return { launchTemplates };
  const profileName = managedProfileName(clusterName, port.region, name);
  const profile = await port.getInstanceProfile(profileName);
  if (!profile || profile.tags[ProfileNodeClassTag] !== name) return { launchTemplates };
  for (const role of profile.roles) await port.removeRoleFromInstanceProfile({ name: profileName, role });
  try {
    await port.deleteInstanceProfile(profileName);
  } catch (e: unknown) {
    if (!AwsApiError.isKind(e, 'NotFound')) throw e;
  }
  return { launchTemplates, instanceProfile: profileName };
}
