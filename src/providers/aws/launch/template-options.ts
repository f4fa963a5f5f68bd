/**
 * The parts of a launch template an EC2NodeClass sets beyond AMI, userData and devices, as Karpenter builds them:
 * network interfaces (the class's list, else one EFA interface per device when the NodeClaim asks for EFA, else the
 * primary interface when prefix delegation, a public address or connection tracking needs saying), CPU options,
 * Nitro Enclaves and the placement group.
 */
import type { EC2NodeClass } from '../../../api/index.js';
import { specOf } from '../nodeclass/settings.js';
import type {
  ConnectionTrackingSpec,
  LaunchNetworkInterface,
  LaunchTemplateInput,
  PlacementGroupInfo,
} from '../ports/index.js';

/** What shapes the options beyond the class: its security groups, EFA devices asked for, the placement group. */
export interface TemplateOptionsInput {
  nodeClass: EC2NodeClass;
  securityGroupIds: string[];
  /** EFA devices to attach (the type's count when the NodeClaim requests `vpc.amazonaws.com/efa`, else 0). */
  efaCount: number;
  placementGroup?: PlacementGroupInfo;
  /** The partition of a partition group (the lowest the NodeClaim allows). */
  partition?: number;
}

type Options = Pick<LaunchTemplateInput, 'networkInterfaces' | 'cpuOptions' | 'enclaveOptions' | 'placement'>;

function connectionTrackingOf(nodeClass: EC2NodeClass): ConnectionTrackingSpec | undefined {
  const ct = specOf(nodeClass).connectionTracking;
  if (!ct) return undefined;
  return {
    ...(ct.tcpEstablishedTimeout === undefined ? {} : { tcpEstablishedTimeout: ct.tcpEstablishedTimeout }),
    ...(ct.udpStreamTimeout === undefined ? {} : { udpStreamTimeout: ct.udpStreamTimeout }),
    ...(ct.udpTimeout === undefined ? {} : { udpTimeout: ct.udpTimeout }),
  };
}

/** Address settings of an interface with IP networking (EFA-only ones take none: EC2 refuses them there). */
function addressing(
  nodeClass: EC2NodeClass,
): Omit<LaunchNetworkInterface, 'networkCardIndex' | 'deviceIndex' | 'interfaceType' | 'groups'> {
  const spec = specOf(nodeClass);
  const connectionTracking = connectionTrackingOf(nodeClass);
  return {
    ...(spec.ipPrefixCount === undefined ? {} : { ipv4PrefixCount: spec.ipPrefixCount }),
    ...(spec.associatePublicIPAddress === undefined ? {} : { associatePublicIpAddress: spec.associatePublicIPAddress }),
    ...(connectionTracking === undefined ? {} : { connectionTracking }),
  };
}

/** The template's network interfaces, or undefined when the default primary interface says it all. */
export function networkInterfacesOf(input: TemplateOptionsInput): LaunchNetworkInterface[] | undefined {
  const { nodeClass, securityGroupIds: groups } = input;
  const listed = specOf(nodeClass).networkInterfaces;
  if (listed !== undefined && listed.length > 0) {
    return listed.map((n) => ({
      networkCardIndex: n.networkCardIndex,
      deviceIndex: n.deviceIndex,
      interfaceType: n.interfaceType,
      groups,
      ...(n.interfaceType === 'efa-only' ? {} : addressing(nodeClass)),
    }));
  }
  if (input.efaCount > 0) {
    // One EFA per network card: device 0 on the first card, device 1 on the others (Karpenter's layout).
    return Array.from({ length: input.efaCount }, (_, i) => ({
      networkCardIndex: i,
      deviceIndex: i === 0 ? 0 : 1,
      interfaceType: 'efa' as const,
      groups,
      ...addressing(nodeClass),
    }));
  }
  const primary = addressing(nodeClass);
  if (Object.keys(primary).length === 0) return undefined;
  return [{ networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface', groups, ...primary }];
}

/** Interfaces, CPU options, enclave and placement of the template. */
export function templateOptions(input: TemplateOptionsInput): Options {
  const spec = specOf(input.nodeClass);
  const networkInterfaces = networkInterfacesOf(input);
  const nested = spec.cpuOptions?.nestedVirtualization;
  const group = input.placementGroup;
  return {
    ...(networkInterfaces === undefined ? {} : { networkInterfaces }),
    ...(nested === undefined ? {} : { cpuOptions: { nestedVirtualization: nested } }),
    enclaveOptions: { enabled: spec.enclaveOptions?.enabled === true },
    ...(group === undefined
      ? {}
      : {
          placement: {
            groupId: group.groupId,
            ...(group.strategy === 'partition' && input.partition !== undefined
              ? { partitionNumber: input.partition }
              : {}),
          },
        }),
  };
}
