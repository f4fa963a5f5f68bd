/** NodeOverlay: instance-type price and capacity adjustments applied before anything prices or packs. */
export * from './apply.js';
export * from './overlaid-cloud-provider.js';
