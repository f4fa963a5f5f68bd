import { Type, type Static } from '@sinclair/typebox';
import { Int, Str, StringEnum, rule } from '../schema/builders.js';

/** One network interface of a launched instance: the primary (`interface`) or an EFA-only one. */
export const NetworkInterfaceSchema = Type.Object({
  deviceIndex: Int({ format: 'int32', minimum: 0 }),
  interfaceType: StringEnum(['interface', 'efa-only'] as const),
  networkCardIndex: Int({ format: 'int32', minimum: 0 }),
});

/** `spec.networkInterfaces`: one primary interface on card 0 / device 0, at most one EFA device per card. */
export const NetworkInterfacesSchema = Type.Array(NetworkInterfaceSchema, {
  maxItems: 150,
  'x-kubernetes-validations': [
    rule(
      "self.size() == 0 || self.exists(x, x.deviceIndex == 0 && x.networkCardIndex == 0 && x.interfaceType == 'interface')",
      "networkInterfaces must include a primary interface with interfaceType='interface'",
    ),
    rule(
      "self.all(x, self.filter(y, x.networkCardIndex == y.networkCardIndex && x.deviceIndex == y.deviceIndex).size() == 1 && (x.interfaceType != 'efa-only' || self.filter(y, x.networkCardIndex == y.networkCardIndex && y.interfaceType == 'efa-only').size() == 1))",
      'networkInterfaces must not have duplicate networkCardIndex and deviceIndex pairs, and can have at most one efa device per network card',
    ),
  ],
});

/** `spec.connectionTracking`: the instance's idle timeouts for tracked connections, in seconds. */
export const ConnectionTrackingSchema = Type.Object(
  {
    tcpEstablishedTimeout: Type.Optional(Int({ format: 'int32', minimum: 60, maximum: 432000 })),
    udpStreamTimeout: Type.Optional(Int({ format: 'int32', minimum: 60, maximum: 180 })),
    udpTimeout: Type.Optional(Int({ format: 'int32', minimum: 30, maximum: 60 })),
  },
  {
    'x-kubernetes-validations': [
      rule(
        'has(self.tcpEstablishedTimeout) || has(self.udpStreamTimeout) || has(self.udpTimeout)',
        'at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set',
      ),
    ],
  },
);

/** `spec.cpuOptions`. */
export const CPUOptionsSchema = Type.Object({
  nestedVirtualization: Type.Optional(StringEnum(['enabled', 'disabled'] as const)),
});

/** `spec.enclaveOptions`: Nitro Enclaves on the launched instances. */
export const EnclaveOptionsSchema = Type.Object({ enabled: Type.Boolean() });

/** `spec.placementGroupSelector`: one placement group, by name or by id. */
export const PlacementGroupSelectorSchema = Type.Object(
  {
    id: Type.Optional(Str({ pattern: '^pg-[0-9a-z]+$' })),
    name: Type.Optional(Str({ minLength: 1 })),
  },
  {
    'x-kubernetes-validations': [
      rule('has(self.name) || has(self.id)', "expected at least one, got none, ['name', 'id']"),
      rule('!(has(self.name) && has(self.id))', "'name' and 'id' are mutually exclusive"),
    ],
  },
);

/** One network interface. */
export type NetworkInterface = Static<typeof NetworkInterfaceSchema>;
/** Connection tracking timeouts. */
export type ConnectionTracking = Static<typeof ConnectionTrackingSchema>;
/** A placement group selector. */
export type PlacementGroupSelector = Static<typeof PlacementGroupSelectorSchema>;
