/** The import rules of DESIGN.md's layers, as data a checker applies to every source file. */

/** Node modules that do I/O; the pure scheduling layer may not touch them. */
export const nodeIoModules = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'child_process',
  'dgram',
  'dns',
  'tls',
  'worker_threads',
  'cluster',
  'readline',
  'os',
  'process',
  'timers',
  'timers/promises',
  'perf_hooks',
];

/** A rule: files of `layer` may not import any of `forbidden` (layers, or `node:` modules). */
export interface LayerRule {
  layer: string;
  forbiddenLayers: string[];
  forbiddenModules?: string[];
  /** When set, the layer may import only these of our layers (besides itself). */
  onlyLayers?: string[];
  why: string;
}

/** Every rule DESIGN.md states. */
export const layerRules: LayerRule[] = [
  { layer: 'api', forbiddenLayers: [], onlyLayers: [], why: 'api imports nothing of ours' },
  {
    layer: 'scheduling',
    forbiddenLayers: [
      'kube',
      'apiserver',
      'controllers',
      'providers',
      'sim',
      'state',
      'cloudprovider',
      'operator',
      'cli',
    ],
    forbiddenModules: nodeIoModules,
    why: 'scheduling is pure: no I/O, no cluster access',
  },
  {
    layer: 'controllers',
    forbiddenLayers: ['sim', 'apiserver'],
    why: 'controllers reach the cluster only through kube',
  },
  { layer: 'apiserver', forbiddenLayers: [], onlyLayers: ['api'], why: 'the embedded API server depends on api only' },
  {
    layer: 'providers',
    forbiddenLayers: ['sim', 'apiserver', 'controllers'],
    why: 'providers never import the simulation',
  },
  {
    layer: 'cloudprovider',
    forbiddenLayers: ['sim', 'apiserver', 'controllers', 'providers'],
    why: 'the interface knows no implementation',
  },
  {
    layer: 'state',
    forbiddenLayers: ['sim', 'apiserver', 'controllers'],
    why: 'state is fed by informers, not the simulation',
  },
  { layer: 'kube', forbiddenLayers: ['sim', 'apiserver', 'controllers'], why: 'kube is the client side only' },
];
