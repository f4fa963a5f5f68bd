/**
 * Differences between the embedded API server and kube-apiserver v1.33.13 that the differential suite found and
 * that are not fixed yet (issue 25, section 4): case name -> the aspects that differ, in request order. None of
 * them is a deliberate difference; each line says what the embedded server does wrong. Remove an entry when it
 * is fixed (the suite fails until you do).
 */
export const knownDifferences: Record<string, string[]> = {
  // managedFields of a create list no fields; pod template defaults priority/enableServiceLinks/preemptionPolicy, which the real server sets only on Pods
  'Deployment as kubectl create sends it: stored defaults': ['step 1 object'],
  // the same managedFields and pod-template defaults; revisionHistoryLimit defaulted (a Deployment field); status.replicas 0 missing
  'plain ReplicaSet create': ['step 1 object'],
  // no ServiceAccount admission (serviceAccountName, the kube-api-access projected volume), no DefaultTolerationSeconds tolerations, qosClass BestEffort for a pod with requests (Burstable), managedFields without fields
  'bare Pod: defaults, ServiceAccount admission, default tolerations, qosClass': ['step 1 object'],
  // managedFields without fields; status not initialized at create
  'PodDisruptionBudget: stored defaults': ['step 1 object'],
  // managedFields of a create list no fields
  'Karpenter getting-started NodePool: stored defaults': ['step 1 object'],
  // managedFields of a create list no fields
  'Karpenter EC2NodeClass example: stored defaults': ['step 1 object'],
  // the real server adds a second cause without a field (the enum message) besides the field's
  'NodePool with an unknown consolidationPolicy is rejected': ['step 1 causes'],
  // accepted: no quantity validation on built-in kinds
  'negative resource quantity is rejected': ['step 1 status'],
  // accepted: label keys are not validated
  'invalid label key is rejected': ['step 1 status'],
  // accepted: label values are not validated
  'label value over 63 characters is rejected': ['step 1 status'],
  // accepted: the annotation size limit is not checked
  'annotations over 256 KiB in total are rejected': ['step 1 status'],
  // 422 from schema validation instead of 400 BadRequest for the kind mismatch
  'a body whose kind does not match the URL is rejected': ['step 1 status', 'step 1 reason', 'step 1 causes'],
  // accepted: the body's apiVersion is not checked against the URL
  'a body whose apiVersion does not match the URL is rejected': ['step 1 status'],
  // accepted: built-in kinds are not type-checked (replicas: "three")
  'a wrong value type in a built-in kind is rejected': ['step 1 status'],
  // accepted: the fieldValidation parameter is not checked
  'an unknown fieldValidation value is rejected': ['step 1 status'],
  // accepted: JSON.parse keeps the last duplicate silently
  'duplicate keys under fieldValidation=Strict are rejected': ['step 1 status'],
  // 500 InternalError instead of 400 BadRequest
  'JSON nested past the decoder depth is refused': ['step 1 status', 'step 1 reason'],
  // PodTemplate is not served (404)
  'strategic merge patch of a container list (merge key name)': ['step 2 status'],
  // 200 and a watch from now instead of an error (the real server answers 500 here)
  'watch from a malformed resourceVersion': ['step 1 status'],
};
