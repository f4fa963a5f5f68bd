package main

import (
	"encoding/json"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/test"
)

// The workload file: Tenon's SchedulingInput (src/scheduling/model.ts) as JSON; pods are core/v1 Pods.
type file struct {
	Pods          []json.RawMessage  `json:"pods"`
	NodePools     []fileNodePool     `json:"nodePools"`
	InstanceTypes []fileInstanceType `json:"instanceTypes"`
	DaemonSets    []fileDaemonSet    `json:"daemonSets"`
}

type fileNodePool struct {
	Name     string              `json:"name"`
	Weight   *int32              `json:"weight"`
	Limits   corev1.ResourceList `json:"limits"`
	Template struct {
		Labels        map[string]string                         `json:"labels"`
		Taints        []corev1.Taint                            `json:"taints"`
		StartupTaints []corev1.Taint                            `json:"startupTaints"`
		Requirements  []v1.NodeSelectorRequirementWithMinValues `json:"requirements"`
	} `json:"template"`
}

type fileOffering struct {
	Zone          string  `json:"zone"`
	CapacityType  string  `json:"capacityType"`
	Price         float64 `json:"price"`
	Available     bool    `json:"available"`
	ReservationID string  `json:"reservationId"`
}

type fileInstanceType struct {
	Name         string                                    `json:"name"`
	Labels       map[string]string                         `json:"labels"`
	Requirements []v1.NodeSelectorRequirementWithMinValues `json:"requirements"`
	Capacity     corev1.ResourceList                       `json:"capacity"`
	Overhead     corev1.ResourceList                       `json:"overhead"`
	Allocatable  corev1.ResourceList                       `json:"allocatable"`
	Offerings    []fileOffering                            `json:"offerings"`
}

type fileDaemonSet struct {
	Name      string                 `json:"name"`
	Namespace string                 `json:"namespace"`
	Template  corev1.PodTemplateSpec `json:"template"`
}

// workload is the file turned into Karpenter's types.
type workload struct {
	raw           []json.RawMessage
	nodePools     []*v1.NodePool
	instanceTypes map[string][]*cloudprovider.InstanceType
	daemonSets    []fileDaemonSet
}

func readWorkload(path string) (*workload, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(f.NodePools) == 0 {
		return nil, fmt.Errorf("%s: nodePools: at least one is required", path)
	}
	its := make([]*cloudprovider.InstanceType, 0, len(f.InstanceTypes))
	for _, it := range f.InstanceTypes {
		its = append(its, instanceType(it))
	}
	w := &workload{raw: f.Pods, instanceTypes: map[string][]*cloudprovider.InstanceType{}, daemonSets: f.DaemonSets}
	for _, np := range f.NodePools {
		p := nodePool(np)
		w.nodePools = append(w.nodePools, p)
		w.instanceTypes[p.Name] = its
	}
	// Pods are decoded once here so a bad file fails before any timing.
	if _, err := w.decodePods(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}

func (w *workload) decodePods() ([]*corev1.Pod, error) {
	pods := make([]*corev1.Pod, 0, len(w.raw))
	for i, r := range w.raw {
		p := &corev1.Pod{}
		if err := json.Unmarshal(r, p); err != nil {
			return nil, fmt.Errorf("pods[%d]: %w", i, err)
		}
		if p.Namespace == "" {
			p.Namespace = "default"
		}
		p.Status.Phase = corev1.PodPending
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable}}
		pods = append(pods, p)
	}
	return pods, nil
}

// freshPods decodes the pods again: Solve may relax preferences of the objects it is given.
func (w *workload) freshPods() []*corev1.Pod {
	pods, _ := w.decodePods()
	return pods
}

func (w *workload) daemonSetPods() []*corev1.Pod {
	var pods []*corev1.Pod
	for _, ds := range w.daemonSets {
		pods = append(pods, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: ds.Name, Namespace: ds.Namespace, Labels: ds.Template.Labels}, Spec: ds.Template.Spec})
	}
	return pods
}

// nodePool builds the NodePool with Karpenter's test defaults (node class reference, ready conditions).
func nodePool(np fileNodePool) *v1.NodePool {
	limits := v1.Limits{}
	for k, q := range np.Limits {
		limits[k] = q
	}
	spec := v1.NodePoolSpec{Weight: np.Weight, Limits: limits}
	spec.Template.Labels = np.Template.Labels
	spec.Template.Spec.Taints = np.Template.Taints
	spec.Template.Spec.StartupTaints = np.Template.StartupTaints
	spec.Template.Spec.Requirements = append([]v1.NodeSelectorRequirementWithMinValues{}, np.Template.Requirements...)
	return test.NodePool(v1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: np.Name}, Spec: spec})
}

// instanceType turns a Tenon instance type into Karpenter's: requirements from its name, labels, extra requirements
// and its offerings' zones and capacity types; kube-reserved overhead so that allocatable comes out as given.
func instanceType(it fileInstanceType) *cloudprovider.InstanceType {
	reqs := scheduling.NewRequirements(scheduling.NewRequirement(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, it.Name))
	for k, val := range it.Labels {
		// Labels an instance type carries are ones a NodePool may select on (the AWS provider registers its own).
		v1.WellKnownLabels.Insert(k)
		reqs.Add(scheduling.NewRequirement(k, corev1.NodeSelectorOpIn, val))
	}
	for _, r := range it.Requirements {
		v1.WellKnownLabels.Insert(r.Key)
		reqs.Add(scheduling.NewNodeSelectorRequirementsWithMinValues(r).Get(r.Key))
	}
	var zones, capacityTypes []string
	var offerings cloudprovider.Offerings
	for _, o := range it.Offerings {
		labels := map[string]string{corev1.LabelTopologyZone: o.Zone, v1.CapacityTypeLabelKey: o.CapacityType}
		if o.ReservationID != "" {
			labels[cloudprovider.ReservationIDLabel] = o.ReservationID
		}
		offerings = append(offerings, &cloudprovider.Offering{Requirements: scheduling.NewLabelRequirements(labels), Price: o.Price, Available: o.Available})
		if o.Available {
			zones = append(zones, o.Zone)
			capacityTypes = append(capacityTypes, o.CapacityType)
		}
	}
	reqs.Add(scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, zones...))
	reqs.Add(scheduling.NewRequirement(v1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, capacityTypes...))
	overhead := it.Overhead
	if it.Allocatable != nil {
		overhead = corev1.ResourceList{}
		for name, c := range it.Capacity {
			if a, ok := it.Allocatable[name]; ok && a.Cmp(c) < 0 {
				d := c.DeepCopy()
				d.Sub(a)
				overhead[name] = d
			}
		}
	}
	capacity := corev1.ResourceList{}
	for k, q := range it.Capacity {
		capacity[k] = q
	}
	if _, ok := capacity[corev1.ResourcePods]; !ok {
		capacity[corev1.ResourcePods] = resource.MustParse("110")
	}
	return &cloudprovider.InstanceType{
		Name:         it.Name,
		Requirements: reqs,
		Offerings:    offerings,
		Capacity:     capacity,
		Overhead:     &cloudprovider.InstanceTypeOverhead{KubeReserved: overhead},
	}
}
