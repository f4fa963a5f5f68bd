/**
 * The EC2NodeClass's instance profile: `spec.instanceProfile` must exist; for `spec.role`, Tenon creates
 * (and later deletes) a profile named `<cluster>_<hash of region and class name>` holding that role.
 */
import { Labels, ConditionReasons } from '../../../api/index.js';
import type { AwsPort, Tags } from '../ports/index.js';
import { AwsApiError } from '../ports/index.js';
import { stableHash } from './hash.js';

/** The tag Tenon marks the instance profiles it creates with (Karpenter's key). */
export const ProfileNodeClassTag = 'karpenter.k8s.aws/ec2nodeclass';

/** The name of the profile Tenon manages for a class with `spec.role`. */
export function managedProfileName(cluster: string, region: string, nodeClassName: string): string {
  return `${cluster}_${stableHash(`${region}${nodeClassName}`)}`;
}

/** The tags of a managed profile. */
export function managedProfileTags(cluster: string, region: string, nodeClassName: string): Tags {
  return {
    [ProfileNodeClassTag]: nodeClassName,
    [`kubernetes.io/cluster/${cluster}`]: 'owned',
    'karpenter.sh/managed-by': cluster,
    'eks:eks-cluster-name': cluster,
    [Labels.region]: region,
  };
}

/** The result of resolving the profile: its name, or why it is not usable. */
export type ProfileResult = { ok: true; name: string } | { ok: false; reason: string; message: string };

/** Checks `spec.instanceProfile` exists. */
export async function checkInstanceProfile(port: AwsPort, name: string): Promise<ProfileResult> {
  const p = await port.getInstanceProfile(name);
  if (!p)
    return {
      ok: false,
      reason: ConditionReasons.instanceProfileNotFound,
      message: `instance profile "${name}" does not exist`,
    };
  return { ok: true, name };
}

/** Creates (or repairs) the managed profile so it holds exactly `role`. */
export async function ensureRoleProfile(input: {
  port: AwsPort;
  cluster: string;
  nodeClassName: string;
  role: string;
}): Promise<ProfileResult> {
  const { port, cluster, nodeClassName, role } = input;
  const name = managedProfileName(cluster, port.region, nodeClassName);
  // A role given as an ARN is used by its name (the last path element).
  const roleName = role.split('/').pop() ?? role;
  try {
    let profile = await port.getInstanceProfile(name);
    profile ??= await port.createInstanceProfile({
      name,
      tags: managedProfileTags(cluster, port.region, nodeClassName),
    });
    if (profile.roles.includes(roleName)) return { ok: true, name };
    for (const r of profile.roles) await port.removeRoleFromInstanceProfile({ name, role: r });
    await port.addRoleToInstanceProfile({ name, role: roleName });
    return { ok: true, name };
  } catch (e: unknown) {
    if (!AwsApiError.is(e)) throw e;
    const message = AwsApiError.isKind(e, 'NotFound') ? `role "${roleName}" does not exist (${e.message})` : e.message;
    return {
      ok: false,
      reason: ConditionReasons.instanceProfileCreationFailed,
      message: `creating instance profile "${name}" for role "${roleName}": ${message}`,
    };
  }
}
