/** A pod using most PodSpec fields, to check that a protobuf round trip (kubectl debug --copy-to) keeps them all. */
export const richPodYaml = `
apiVersion: v1
kind: Pod
metadata: {name: rich, labels: {app: rich}, annotations: {note: x}}
spec:
  nodeName: n1
  hostname: rich-host
  subdomain: sub
  dnsConfig: {nameservers: [1.1.1.1], searches: [a.local], options: [{name: ndots, value: "2"}]}
  hostAliases: [{ip: 10.0.0.1, hostnames: [a, b]}]
  automountServiceAccountToken: false
  shareProcessNamespace: true
  securityContext: {runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [4000, 5000], sysctls: [{name: net.core.somaxconn, value: "1024"}], seccompProfile: {type: RuntimeDefault}}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [us-east-1a]}]}]
      preferredDuringSchedulingIgnoredDuringExecution: [{weight: 10, preference: {matchExpressions: [{key: k, operator: Exists}]}}]
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution: [{weight: 50, podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: rich}}}}]
  topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: rich}}, minDomains: 2, nodeAffinityPolicy: Honor}]
  tolerations: [{key: k, operator: Equal, value: v, effect: NoExecute, tolerationSeconds: 0}]
  readinessGates: [{conditionType: example.com/ready}]
  initContainers:
  - name: init
    image: busybox
    command: [sh, -c, "true"]
    restartPolicy: Always
  containers:
  - name: app
    image: nginx:1.27
    args: [--flag]
    workingDir: /srv
    ports: [{name: http, containerPort: 8080, protocol: TCP, hostPort: 80}]
    env:
    - {name: A, value: "1"}
    - {name: POD, valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}}}
    - {name: CPU, valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1m}}}
    - {name: S, valueFrom: {secretKeyRef: {name: s, key: k, optional: false}}}
    envFrom: [{prefix: CM_, configMapRef: {name: cm, optional: true}}]
    resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {cpu: "1", memory: 128Mi, ephemeral-storage: 1Gi}}
    volumeMounts: [{name: data, mountPath: /data, readOnly: true, subPath: x}, {name: cfg, mountPath: /cfg}]
    livenessProbe: {httpGet: {path: /healthz, port: http, httpHeaders: [{name: X, value: hdr}]}, initialDelaySeconds: 5, periodSeconds: 7, failureThreshold: 3}
    readinessProbe: {tcpSocket: {port: 8080}, timeoutSeconds: 2}
    startupProbe: {exec: {command: [cat, /tmp/ok]}, terminationGracePeriodSeconds: 0}
    lifecycle: {preStop: {sleep: {seconds: 0}}, postStart: {exec: {command: ["true"]}}}
    securityContext: {privileged: false, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: {add: [NET_ADMIN], drop: [ALL]}}
    stdin: true
    tty: true
    imagePullPolicy: IfNotPresent
  volumes:
  - {name: data, persistentVolumeClaim: {claimName: pvc, readOnly: true}}
  - {name: cfg, configMap: {name: cm, items: [{key: a, path: a.txt, mode: 256}], defaultMode: 420, optional: true}}
  - {name: sec, secret: {secretName: s, defaultMode: 256}}
  - {name: tmp, emptyDir: {medium: Memory, sizeLimit: 64Mi}}
  - {name: host, hostPath: {path: /var/log, type: Directory}}
  - {name: proj, projected: {sources: [{serviceAccountToken: {path: token, expirationSeconds: 3600, audience: api}}, {downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}}]}}
  - {name: eph, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: ""}}}}
  - {name: csi, csi: {driver: ebs.csi.aws.com, volumeAttributes: {a: b}}}
`;
