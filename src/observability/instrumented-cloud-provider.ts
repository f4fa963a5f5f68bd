import type { CloudProvider } from '../cloudprovider/index.js';
import type { Clock } from '../clock/index.js';
import type { Metrics } from './metrics.js';

/** The error label of a failed call: the typed cloud error's kind, else the error's name. */
function errorLabel(e: unknown): string {
  const kind = (e as { kind?: unknown } | null)?.kind;
  if (typeof kind === 'string') return kind;
  return e instanceof Error ? e.name : 'unknown';
}

/**
 * The cloud provider with every asynchronous method timed into `karpenter_cloudprovider_duration_seconds` and every
 * failure counted in `karpenter_cloudprovider_errors_total` (labels as Karpenter's decorator; `controller` is left
 * empty because one provider instance serves every controller).
 */
export function instrumentCloudProvider(cp: CloudProvider, metrics: Metrics, clock: Clock): CloudProvider {
  return new Proxy(cp, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]): unknown => {
        const result: unknown = Reflect.apply(value, target, args);
        if (!(result instanceof Promise)) return result;
        const labels = { controller: '', method: prop, provider: target.name };
        const start = clock.now();
        const observe = (): void => metrics.cloudProviderDuration.observe(labels, (clock.now() - start) / 1000);
        return result.then(
          (v: unknown) => {
            observe();
            return v;
          },
          (e: unknown) => {
            observe();
            metrics.cloudProviderErrors.inc({ ...labels, error: errorLabel(e) });
            throw e;
          },
        );
      };
    },
  });
}
