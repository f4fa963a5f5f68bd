import { describe, expect, it } from 'vitest';
import { serveBanner, type ServeBannerInput } from './serve-banner.js';

const input: ServeBannerInput = {
  url: 'https://127.0.0.1:6443',
  clusterName: 'my-cluster',
  kubernetesVersion: '1.31',
  zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'],
  kubeconfig: '/home/me/.tenon/kubeconfig',
  logFile: '/home/me/.tenon/tenon.log',
  verbose: false,
  metricsUrl: 'http://127.0.0.1:8080/metrics',
  speed: 1,
  fastForward: false,
  defaults: true,
};

describe('the tenon serve banner', () => {
  it("names the cluster as Karpenter's examples do and says how to apply one", () => {
    const text = serveBanner(input).join('\n');
    expect(text).toContain('cluster "my-cluster", Kubernetes 1.31');
    expect(text).toMatch(/CLUSTER_NAME\s+my-cluster/);
    expect(text).toMatch(/node role\s+KarpenterNodeRole-my-cluster/);
    expect(text).toMatch(/discovery tag\s+karpenter.sh\/discovery: my-cluster/);
    expect(text).toContain('CLUSTER_NAME=my-cluster envsubst < examples/v1/general-purpose.yaml | kubectl apply -f -');
    expect(text).toContain('export KUBECONFIG=/home/me/.tenon/kubeconfig');
    expect(text).toContain('--no-defaults');
  });

  it('says where the logs and metrics are, and when simulated time runs ahead of the host', () => {
    const text = serveBanner(input).join('\n');
    expect(text).toMatch(/logs\s+\/home\/me\/.tenon\/tenon.log .*--verbose/);
    expect(text).toMatch(/metrics\s+http:\/\/127.0.0.1:8080\/metrics/);
    expect(text).toContain('AGE column reads true');
    expect(serveBanner({ ...input, speed: 10 }).join('\n')).toMatch(
      /time\s+simulated, from this host's time at 10x: it runs ahead of this host/,
    );
  });
});
