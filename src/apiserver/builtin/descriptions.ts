/**
 * What `kubectl explain` prints for the built-in kinds, keyed by client-node model name; `''` describes the
 * type itself. @kubernetes/client-node's models carry no prose, so the commonly used kinds and fields are
 * described here in our own words (facts as the Kubernetes API reference states them).
 */

/** Field name → description for one model; `''` for the model itself. */
export type ModelDescriptions = Readonly<Record<string, string>>;

const objectMeta: ModelDescriptions = {
  '': 'Metadata every persisted object has: name, namespace, labels, annotations, owners and bookkeeping the server fills in.',
  name: 'Name of the object, unique within its namespace (or cluster-wide for cluster-scoped kinds). Cannot be updated.',
  generateName: 'A prefix the server completes with a random suffix to make a unique name, used when name is empty.',
  namespace: 'The namespace the object lives in; empty for cluster-scoped kinds.',
  labels: 'Key/value pairs used to organize and select objects (by selectors of Services, ReplicaSets...).',
  annotations: 'Key/value pairs for tools and people to store arbitrary non-identifying data; not queryable.',
  uid: 'A unique ID the server gives the object at creation; never reused. Read-only.',
  resourceVersion:
    'An opaque version the server changes on every write; used for optimistic concurrency and watches. Read-only.',
  generation: 'A counter of changes to the desired state (spec), set by the server. Read-only.',
  creationTimestamp: 'When the object was created, set by the server. Read-only.',
  deletionTimestamp: 'When deletion was requested; the object stays until its finalizers are removed. Read-only.',
  deletionGracePeriodSeconds: 'Seconds the object is allowed to terminate gracefully before it is removed. Read-only.',
  finalizers: 'Names of controllers that must finish clean-up before the object is removed from storage.',
  ownerReferences: 'Objects this object depends on; when all owners are gone it is garbage collected.',
  managedFields: 'Which field manager owns which fields, as server-side apply tracks it. Internal bookkeeping.',
};

const container: ModelDescriptions = {
  '': 'One container of a pod: its image, command, environment, ports, resources and probes.',
  name: 'Name of the container, unique within the pod (DNS label). Cannot be updated.',
  image: 'The container image to run.',
  imagePullPolicy:
    'When to pull the image: Always, Never or IfNotPresent. Defaults to Always for :latest, otherwise IfNotPresent.',
  command: "The entrypoint; replaces the image's ENTRYPOINT. Not run in a shell.",
  args: "Arguments to the entrypoint; replace the image's CMD.",
  workingDir: 'The working directory; the image default when empty.',
  env: 'Environment variables to set in the container.',
  envFrom: 'Sources (ConfigMaps, Secrets) whose keys become environment variables.',
  ports: 'Ports the container exposes; informational, except that hostPort needs a free port on the node.',
  resources: 'Compute resources (cpu, memory...) the container requests and is limited to.',
  volumeMounts: 'Pod volumes to mount into the container filesystem.',
  livenessProbe: 'A periodic check; the container is restarted when it fails.',
  readinessProbe: 'A periodic check; the pod is taken out of Service endpoints while it fails.',
  startupProbe: 'A check that must succeed before the other probes start; the container is restarted when it fails.',
  lifecycle: 'Actions run right after the container starts and before it stops.',
  securityContext: 'Security settings of the container (user, capabilities, privilege).',
  restartPolicy: 'Only for init containers: Always makes it a sidecar that keeps running beside the others.',
  stdin: 'Whether the container keeps a stdin buffer open.',
  tty: 'Whether the container gets a TTY.',
  terminationMessagePath: 'The file whose contents become the termination message.',
  terminationMessagePolicy: 'Where the termination message comes from: File, or FallbackToLogsOnError.',
};

const podSpec: ModelDescriptions = {
  '': 'The desired state of a pod: its containers, volumes and the constraints on where and how it runs.',
  containers: 'The containers of the pod; at least one. Cannot be added or removed after creation.',
  initContainers: 'Containers run one by one, each to completion, before the other containers start.',
  ephemeralContainers: 'Containers added to a running pod for debugging.',
  volumes: 'Volumes the containers of the pod can mount.',
  nodeName: 'The node the pod is bound to; set by the scheduler, or by hand to skip scheduling.',
  nodeSelector: 'Labels a node must have for the pod to be scheduled there.',
  affinity: 'Node affinity and pod (anti-)affinity rules the scheduler honours.',
  tolerations: 'Taints the pod tolerates, letting it run on nodes that carry them.',
  topologySpreadConstraints:
    'How the pods matching a selector must be spread across zones, nodes or other topology domains.',
  schedulerName: 'The scheduler that places the pod; default-scheduler when empty.',
  priorityClassName: 'The PriorityClass whose value becomes the pod priority.',
  priority: 'The pod priority, filled in from priorityClassName by admission. Higher goes first and may preempt lower.',
  preemptionPolicy: 'Whether the pod may preempt lower-priority pods: PreemptLowerPriority (default) or Never.',
  restartPolicy: 'When containers are restarted: Always (default), OnFailure or Never.',
  terminationGracePeriodSeconds:
    'Seconds the pod gets to stop gracefully after SIGTERM before it is killed. Default 30.',
  activeDeadlineSeconds: 'How long the pod may be active before the kubelet fails it.',
  serviceAccountName: 'The ServiceAccount the pod runs as.',
  serviceAccount: 'Deprecated alias of serviceAccountName.',
  automountServiceAccountToken: 'Whether the ServiceAccount token is mounted automatically.',
  hostNetwork: "Whether the pod uses the node's network namespace.",
  hostPID: "Whether the pod uses the node's process namespace.",
  hostIPC: "Whether the pod uses the node's IPC namespace.",
  hostname: 'The hostname of the pod; the pod name when empty.',
  subdomain: 'With a headless Service of this name, gives the pod the DNS name <hostname>.<subdomain>.<namespace>.svc.',
  dnsPolicy: 'How DNS is set up: ClusterFirst (default), ClusterFirstWithHostNet, Default or None.',
  dnsConfig: 'Extra DNS settings merged into the generated configuration.',
  imagePullSecrets: 'Secrets used to pull the images of the pod.',
  securityContext: 'Security settings that apply to every container of the pod.',
  resources: 'Resources for the pod as a whole (pod-level requests and limits).',
  overhead: 'Resources the runtime class adds on top of the containers, counted by the scheduler.',
  runtimeClassName: 'The RuntimeClass that runs the pod.',
  schedulingGates: 'While any gate is present the pod is not scheduled.',
  os: 'The operating system the pod needs (linux or windows).',
  readinessGates: 'Extra conditions that must be True for the pod to be Ready.',
};

const podTemplateSpec: ModelDescriptions = {
  '': 'The template of the pods a controller creates.',
  metadata: 'Labels and annotations of the created pods; the labels must match the selector.',
  spec: 'The spec of the created pods.',
};

const selector =
  'A label query for the pods this controller manages; it must match the template labels. Immutable in apps/v1.';
const template = 'The template of the pods this controller creates.';
const minReady =
  'Seconds a new pod must be ready, with no container crashing, before it counts as available. Default 0.';
const revisions = 'How many old revisions are kept for rollback. Default 10.';

/** Descriptions by client-node model name. */
export const builtinDescriptions: Readonly<Record<string, ModelDescriptions>> = {
  V1ObjectMeta: objectMeta,
  V1Pod: { '': 'A pod: one or more containers that run together on one node, sharing network and volumes.' },
  V1PodSpec: podSpec,
  V1PodStatus: {
    '': 'The most recently observed state of a pod.',
    phase: 'Where the pod is in its lifecycle: Pending, Running, Succeeded, Failed or Unknown.',
    conditions: 'Conditions of the pod (PodScheduled, Initialized, ContainersReady, Ready...).',
    hostIP: 'IP address of the node the pod runs on.',
    podIP: 'IP address of the pod.',
    nominatedNodeName: 'The node the scheduler expects the pod to land on once preemption frees room.',
    containerStatuses: 'The state of each container.',
    qosClass: 'The quality-of-service class: Guaranteed, Burstable or BestEffort.',
    startTime: 'When the kubelet accepted the pod.',
  },
  V1Container: container,
  V1ContainerPort: {
    '': 'A network port of a container.',
    containerPort: 'The port number on the pod IP.',
    hostPort: 'The port to expose on the node; pods using the same host port cannot share a node.',
    name: 'A name for the port (IANA_SVC_NAME) that Services can refer to.',
    protocol: 'TCP (default), UDP or SCTP.',
    hostIP: 'The node IP to bind the host port to.',
  },
  V1ResourceRequirements: {
    '': 'Compute resource requests and limits.',
    requests:
      'The least resources needed; the scheduler places pods by requests. Defaults to limits when only those are set.',
    limits: 'The most resources allowed.',
  },
  V1EnvVar: {
    '': 'An environment variable.',
    name: 'Name of the variable.',
    value: 'Its value; $(VAR) references are expanded.',
    valueFrom: 'Where to read the value from instead.',
  },
  V1Toleration: {
    '': 'Lets a pod run on nodes with a matching taint.',
    key: 'The taint key matched; empty with operator Exists matches every key.',
    operator: 'Equal (default) or Exists.',
    value: 'The taint value matched with operator Equal.',
    effect: 'The taint effect matched; empty matches every effect.',
    tolerationSeconds: 'For NoExecute: how long the pod stays after the taint appears.',
  },
  V1Taint: {
    '': 'Repels pods that do not tolerate it from a node.',
    key: 'The taint key. Required.',
    value: 'The taint value.',
    effect: 'NoSchedule, PreferNoSchedule or NoExecute. Required.',
    timeAdded: 'When a NoExecute taint was added.',
  },
  V1PodTemplateSpec: podTemplateSpec,
  V1Deployment: { '': 'A Deployment rolls out and keeps a replicated set of pods through ReplicaSets.' },
  V1DeploymentSpec: {
    '': 'The desired state of a Deployment.',
    replicas: 'How many pods are wanted. Default 1.',
    selector,
    template,
    strategy: 'How old pods are replaced by new ones: RollingUpdate (default) or Recreate.',
    minReadySeconds: minReady,
    revisionHistoryLimit: revisions,
    paused: 'While true, changes to the template do not start a rollout.',
    progressDeadlineSeconds: 'Seconds a rollout may go without progress before it is reported as failed. Default 600.',
  },
  V1DeploymentStrategy: {
    '': 'How a Deployment replaces pods.',
    type: 'RollingUpdate (default) or Recreate.',
    rollingUpdate: 'Surge and unavailability limits of a rolling update.',
  },
  V1ReplicaSet: { '': 'A ReplicaSet keeps a given number of identical pods running.' },
  V1ReplicaSetSpec: {
    '': 'The desired state of a ReplicaSet.',
    replicas: 'How many pods are wanted. Default 1.',
    selector,
    template,
    minReadySeconds: minReady,
  },
  V1DaemonSet: { '': 'A DaemonSet runs one copy of a pod on every (selected) node.' },
  V1DaemonSetSpec: {
    '': 'The desired state of a DaemonSet.',
    selector,
    template: 'The template of the pods run on each eligible node.',
    updateStrategy: 'How pods are replaced when the template changes: RollingUpdate (default) or OnDelete.',
    minReadySeconds: minReady,
    revisionHistoryLimit: revisions,
  },
  V1StatefulSet: { '': 'A StatefulSet runs pods with stable names and storage, created and updated in order.' },
  V1StatefulSetSpec: {
    '': 'The desired state of a StatefulSet.',
    replicas: 'How many pods are wanted. Default 1.',
    selector,
    template,
    serviceName: 'The headless Service that gives the pods their network identity.',
    volumeClaimTemplates: 'Claims each pod gets its own PersistentVolumeClaim from, kept across rescheduling.',
    podManagementPolicy: 'OrderedReady (default: one at a time, in order) or Parallel.',
    updateStrategy: 'How pods are replaced when the template changes: RollingUpdate (default) or OnDelete.',
    persistentVolumeClaimRetentionPolicy:
      'Whether claims from the templates are kept or deleted when the set is deleted or scaled down.',
    minReadySeconds: minReady,
    revisionHistoryLimit: revisions,
    ordinals: 'The number the pod ordinals start from.',
  },
  V1Node: { '': 'A node: a machine (virtual or physical) pods run on.' },
  V1NodeSpec: {
    '': 'The desired state of a node.',
    providerID: 'The ID the cloud provider gives the machine (aws:///zone/i-...).',
    taints: 'Taints that repel pods which do not tolerate them.',
    unschedulable: 'When true no new pods are scheduled to the node (kubectl cordon).',
    podCIDR: 'The pod IP range given to the node.',
    podCIDRs: 'The pod IP ranges given to the node, one per IP family.',
    externalID: 'Deprecated.',
    configSource: 'Deprecated.',
  },
  V1NodeStatus: {
    '': 'The most recently observed state of a node.',
    capacity: 'The total resources of the node.',
    allocatable: 'The resources available to pods: capacity minus what is reserved for the system.',
    conditions: 'Conditions of the node (Ready, MemoryPressure, DiskPressure, PIDPressure...).',
    addresses: 'The addresses of the node (InternalIP, ExternalIP, Hostname...).',
    nodeInfo: 'Versions and IDs reported by the node (kubelet, OS, kernel, runtime).',
    images: 'Container images present on the node.',
    daemonEndpoints: 'Ports of the daemons running on the node.',
    volumesAttached: 'Volumes attached to the node.',
    volumesInUse: 'Volumes in use (mounted) on the node.',
    phase: 'Deprecated and unused.',
  },
  V1Service: {
    '': 'A Service gives a set of pods one stable virtual IP and DNS name and balances traffic between them.',
  },
  V1ServiceSpec: {
    '': 'The desired state of a Service.',
    type: 'How the Service is exposed: ClusterIP (default), NodePort, LoadBalancer or ExternalName.',
    selector: 'Pods with these labels receive the traffic; without a selector endpoints are managed by hand.',
    ports: 'The ports the Service exposes.',
    clusterIP: 'The virtual IP of the Service; assigned when empty, None for a headless Service.',
    clusterIPs: 'The virtual IPs of the Service, one per IP family.',
    externalName: 'For type ExternalName: the DNS name the Service is an alias of.',
    externalIPs: 'Extra IPs that route to the Service.',
    sessionAffinity: 'ClientIP sends one client to the same pod; None (default) does not.',
    externalTrafficPolicy: 'Cluster (default) or Local: whether external traffic may be routed to pods on other nodes.',
    internalTrafficPolicy: 'Cluster (default) or Local: whether in-cluster traffic may go to pods on other nodes.',
    loadBalancerClass: 'The load balancer implementation for type LoadBalancer.',
    ipFamilies: 'The IP families (IPv4, IPv6) of the Service.',
    ipFamilyPolicy: 'SingleStack, PreferDualStack or RequireDualStack.',
    publishNotReadyAddresses: 'Whether pods that are not ready still get endpoints.',
  },
  V1ServicePort: {
    '': 'A port a Service exposes.',
    name: 'Name of the port; required when there are several.',
    port: 'The port the Service listens on.',
    targetPort: 'The port (number or named container port) on the pods; defaults to port.',
    nodePort: 'For NodePort and LoadBalancer: the port opened on every node.',
    protocol: 'TCP (default), UDP or SCTP.',
    appProtocol: 'The application protocol, a hint for implementations.',
  },
  V1ConfigMap: {
    '': 'A ConfigMap holds configuration data for pods to consume as environment variables, files or arguments.',
    data: 'UTF-8 string values by key.',
    binaryData: 'Base64-encoded binary values by key.',
    immutable: 'When true the data can no longer be changed (only the object deleted).',
  },
  V1Secret: {
    '': 'A Secret holds a small amount of sensitive data (passwords, tokens, keys).',
    data: 'Base64-encoded values by key.',
    stringData: 'Plain string values by key, merged into data on write.',
    type: 'The kind of secret (Opaque, kubernetes.io/tls, kubernetes.io/dockerconfigjson...).',
    immutable: 'When true the data can no longer be changed.',
  },
  V1PodDisruptionBudget: {
    '': 'A PodDisruptionBudget limits how many pods of a set voluntary disruptions (evictions, drains) may take down at once.',
  },
  V1PodDisruptionBudgetSpec: {
    '': 'The desired state of a PodDisruptionBudget.',
    selector: 'The pods the budget protects.',
    minAvailable: 'An eviction is allowed only if at least this many (or this percentage) of the pods stay available.',
    maxUnavailable:
      'An eviction is allowed only if at most this many (or this percentage) of the pods are unavailable afterwards.',
    unhealthyPodEvictionPolicy:
      'IfHealthyBudget (default) or AlwaysAllow: whether running but not-ready pods may be evicted regardless of the budget.',
  },
  V1PersistentVolumeClaim: {
    '': "A PersistentVolumeClaim is a user's request for storage, bound to a PersistentVolume.",
  },
  V1PersistentVolumeClaimSpec: {
    '': 'The desired state of a PersistentVolumeClaim.',
    accessModes: 'How the volume may be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod.',
    resources: 'The storage size requested.',
    storageClassName: 'The StorageClass to provision from; the default class when unset, none when empty.',
    volumeName: 'The PersistentVolume to bind to.',
    volumeMode: 'Filesystem (default) or Block.',
    selector: 'A label query over the volumes that may be bound.',
    dataSource: 'An existing snapshot or claim to populate the volume from.',
  },
  V1PersistentVolume: {
    '': 'A PersistentVolume is a piece of storage in the cluster, provisioned by an administrator or dynamically.',
  },
  V1PersistentVolumeSpec: {
    '': 'The desired state of a PersistentVolume.',
    capacity: 'The size of the volume.',
    accessModes: 'How the volume may be mounted.',
    claimRef: 'The claim the volume is bound to.',
    persistentVolumeReclaimPolicy: 'What happens when the claim is released: Retain, Delete or Recycle.',
    storageClassName: 'The StorageClass the volume belongs to.',
    nodeAffinity: 'The nodes the volume can be reached from (e.g. its zone).',
    csi: 'A volume served by a CSI driver.',
    mountOptions: 'Mount options used when the volume is mounted.',
    volumeMode: 'Filesystem (default) or Block.',
  },
  V1StorageClass: {
    '': 'A StorageClass describes a kind of storage and the provisioner that creates volumes of it.',
    provisioner: 'The volume plugin or CSI driver that provisions volumes.',
    parameters: 'Settings passed to the provisioner.',
    reclaimPolicy: 'Delete (default) or Retain for the volumes provisioned.',
    volumeBindingMode:
      'Immediate (default) or WaitForFirstConsumer: bind only once a pod using the claim is scheduled.',
    allowVolumeExpansion: 'Whether claims may be resized.',
    allowedTopologies: 'Where volumes may be provisioned.',
    mountOptions: 'Mount options of the provisioned volumes.',
  },
  V1Namespace: { '': 'A namespace: a scope for names and a unit of access control and quotas.' },
  V1NamespaceSpec: {
    '': 'The desired state of a namespace.',
    finalizers: 'Clean-ups that must finish before the namespace is removed.',
  },
  V1NamespaceStatus: {
    '': 'The observed state of a namespace.',
    phase: 'Active or Terminating.',
    conditions: 'Conditions of the namespace.',
  },
  V1LabelSelector: {
    '': 'A label query; all its parts are ANDed. An empty selector matches everything.',
    matchLabels: 'Labels that must have exactly these values.',
    matchExpressions: 'Requirements on labels (In, NotIn, Exists, DoesNotExist).',
  },
  V1Job: { '': 'A Job runs pods until a given number of them complete successfully.' },
  V1PriorityClass: {
    '': 'A PriorityClass maps a name to a pod priority.',
    value: 'The priority of pods using the class; higher is more important.',
    globalDefault: 'Whether pods without a class get this one.',
    preemptionPolicy: 'PreemptLowerPriority (default) or Never.',
    description: 'When to use this class.',
  },
};

const kindFields: ModelDescriptions = {
  apiVersion:
    'The versioned schema of this object (group/version); servers convert known versions and may reject unknown ones.',
  kind: 'The REST resource this object represents, in CamelCase; servers may infer it from the endpoint. Cannot be updated.',
  metadata: "The object's metadata: name, namespace, labels, annotations.",
};

/**
 * The description of field `field` of model `model`, or of the model itself for `''`. Top-level kinds (models
 * with metadata) get generic texts for apiVersion, kind, metadata, spec and status when none is listed.
 */
export function describeField(model: string, field: string, topLevel: boolean): string | undefined {
  const own = builtinDescriptions[model]?.[field];
  if (own || field === '' || !topLevel) return own;
  const kind = model.replace(/^(Core|Events)?V\d+/, '');
  if (field === 'spec') return `The desired state of the ${kind}.`;
  if (field === 'status') return `The most recently observed state of the ${kind}; written by the system.`;
  return kindFields[field];
}
