/** What `tenon serve` prints at start: where everything is, the cluster as Karpenter's examples name it, what to try. */

/** The facts the banner reports. */
export interface ServeBannerInput {
  url: string;
  clusterName: string;
  kubernetesVersion: string;
  zones: readonly string[];
  kubeconfig: string;
  logFile: string;
  /** The command that shows the controllers' logs through the API server, when the playground serves them. */
  logsCommand?: string;
  verbose: boolean;
  metricsUrl: string;
  speed: number;
  fastForward: boolean;
  defaults: boolean;
  state?: string;
}

function timeLine(i: ServeBannerInput): string {
  if (i.speed === 1 && !i.fastForward)
    return "simulated, from this host's time at 1x (kubectl's AGE column reads true)";
  const how = [i.speed !== 1 ? `${i.speed}x` : '', i.fastForward ? 'jumping ahead whenever the cluster is idle' : '']
    .filter(Boolean)
    .join(', ');
  return `simulated, from this host's time at ${how}: it runs ahead of this host, so kubectl's AGE column reads short; the logs carry simulated time`;
}

/** The banner's lines. */
export function serveBanner(i: ServeBannerInput): string[] {
  const kubectl = 'kubectl';
  return [
    `Tenon playground serving at ${i.url}: cluster "${i.clusterName}", Kubernetes ${i.kubernetesVersion}`,
    '',
    `  kubeconfig   ${i.kubeconfig}`,
    `  logs         ${i.logFile}${i.logsCommand ? ` and \`${i.logsCommand}\`` : ''}${i.verbose ? ' (also printed here)' : ' (--verbose prints them here)'}`,
    `  metrics      ${i.metricsUrl}`,
    `  time         ${timeLine(i)}`,
    ...(i.state ? [`  state        ${i.state}`] : []),
    '',
    "The cluster as Karpenter's examples name it:",
    `  CLUSTER_NAME    ${i.clusterName}   (--cluster-name NAME to use yours)`,
    `  node role       KarpenterNodeRole-${i.clusterName}`,
    `  discovery tag   karpenter.sh/discovery: ${i.clusterName}   (subnets and security groups in ${i.zones.join(', ')})`,
    i.defaults
      ? '  installed       EC2NodeClass "default" and NodePool "default" (the getting-started guide\'s; apply yours over them, or start with --no-defaults)'
      : '  installed       nothing (--no-defaults): apply an EC2NodeClass and a NodePool',
    '',
    'Apply an upstream example or your own NodePool:',
    `  export KUBECONFIG=${i.kubeconfig}`,
    `  CLUSTER_NAME=${i.clusterName} envsubst < examples/v1/general-purpose.yaml | ${kubectl} apply -f -   # from aws/karpenter-provider-aws`,
    `  ${kubectl} get nodepools,ec2nodeclasses,nodeclaims,nodes`,
    `  ${kubectl} create deployment web --image=nginx --replicas=10 && ${kubectl} set resources deployment web --requests=cpu=500m`,
    `  ${kubectl} get events -w`,
    '',
    'Ctrl-C stops it.',
    '',
  ];
}
