/** The userData of the field reports SCENARIOS.md S2 and S3 describe, as the instances really booted with it. */

/** S2 as reported: Karpenter's NodeConfig sets registerWithTaints; the user's kubelet flag replaces the list. */
export const s2UserData = `MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="BOUNDARY"

--BOUNDARY
Content-Type: application/node.eks.aws

apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  kubelet:
    flags:
      - --register-with-taints=node.cilium.io/agent-not-ready=true:NoExecute

--BOUNDARY
Content-Type: application/node.eks.aws

apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: playground
    apiServerEndpoint: https://127.0.0.1
    certificateAuthority: Cg==
    cidr: 10.100.0.0/16
  kubelet:
    config:
      maxPods: 29
      registerWithTaints:
        - key: karpenter.sh/unregistered
          effect: NoExecute
    flags:
      - --node-labels=karpenter.sh/nodepool=default

--BOUNDARY--
`;

/** S3 as reported: the one-word --kubelet-extra-args= form bootstrap.sh does not recognise. */
export const s3UserData = `#!/bin/bash
/etc/eks/bootstrap.sh playground --kubelet-extra-args='--register-with-taints="karpenter.sh/unregistered:NoExecute" --node-labels=karpenter.sh/nodepool=default'
`;
