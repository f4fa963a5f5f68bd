// Command peer runs Karpenter's provisioning scheduler (sigs.k8s.io/karpenter, with its fake cloud provider) on a
// workload file that Tenon's peer benchmark also solves, and prints what it decided and how long Solve took as JSON.
//
// Usage: peer [-preference-policy Respect|Ignore] [-warmup N] WORKLOAD.json
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"

	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"
	fakecr "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/cloudprovider/fake"
	"sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling"
	"sigs.k8s.io/karpenter/pkg/controllers/state"
	"sigs.k8s.io/karpenter/pkg/events"
	"sigs.k8s.io/karpenter/pkg/operator/injection"
	"sigs.k8s.io/karpenter/pkg/operator/logging"
	"sigs.k8s.io/karpenter/pkg/operator/options"
	"sigs.k8s.io/karpenter/pkg/test"
)

// result is what the program prints: one JSON object.
type result struct {
	Pods            int         `json:"pods"`
	NodeClaims      []nodeClaim `json:"nodeClaims"`
	Cost            float64     `json:"cost"`
	Unscheduled     int         `json:"unscheduled"`
	Errors          []string    `json:"errors,omitempty"`
	SetupSeconds    float64     `json:"setupSeconds"`
	SolveSeconds    float64     `json:"solveSeconds"`
	SolveCPUSeconds float64     `json:"solveCpuSeconds"`
}

type nodeClaim struct {
	NodePool      string  `json:"nodePool"`
	Pods          int     `json:"pods"`
	Options       int     `json:"instanceTypeOptions"`
	InstanceType  string  `json:"instanceType"`
	Zone          string  `json:"zone"`
	CapacityType  string  `json:"capacityType"`
	Price         float64 `json:"price"`
}

func main() {
	log.SetLogger(logging.NopLogger)
	policy := flag.String("preference-policy", "Respect", "Respect or Ignore")
	warmup := flag.Int("warmup", 1, "solves to run (and discard) before the timed one")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: peer [-preference-policy Respect|Ignore] [-warmup N] WORKLOAD.json")
	}
	flag.Parse()
	if flag.NArg() != 1 || (*policy != "Respect" && *policy != "Ignore") || *warmup < 0 {
		flag.Usage()
		os.Exit(2)
	}
	w, err := readWorkload(flag.Arg(0))
	if err != nil {
		fmt.Fprintf(os.Stderr, "peer: %s\n", err)
		os.Exit(2)
	}
	var opts []scheduling.Options
	if *policy == "Ignore" {
		opts = append(opts, scheduling.IgnorePreferences)
	}
	// The concurrency Karpenter's own scheduling benchmark uses.
	opts = append(opts, scheduling.NumConcurrentReconciles(5))
	var out result
	for i := 0; i <= *warmup; i++ {
		if out, err = run(w, opts); err != nil {
			fmt.Fprintf(os.Stderr, "peer: %s\n", err)
			os.Exit(1)
		}
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(os.Stderr, "peer: %s\n", err)
		os.Exit(1)
	}
}

// run builds a fresh scheduler (as the provisioner does per batch) and times Solve alone, as Karpenter's benchmark does.
func run(w *workload, opts []scheduling.Options) (result, error) {
	ctx := options.ToContext(injection.WithControllerName(context.Background(), "provisioner"), test.Options())
	pods := w.freshPods()
	setupStart := time.Now()
	cloudProvider := fake.NewCloudProvider()
	client := fakecr.NewFakeClient()
	clk := &clock.RealClock{}
	cluster := state.NewCluster(clk, client, cloudProvider)
	topology, err := scheduling.NewTopology(ctx, client, cluster, nil, w.nodePools, w.instanceTypes, pods, opts...)
	if err != nil {
		return result{}, fmt.Errorf("creating topology: %w", err)
	}
	s := scheduling.NewScheduler(ctx, client, w.nodePools, cluster, nil, topology, w.instanceTypes, w.daemonSetPods(),
		events.NewRecorder(&record.FakeRecorder{}), clk, nil, nil, opts...)
	setup := time.Since(setupStart)

	cpu0 := cpuSeconds()
	start := time.Now()
	res, err := s.Solve(ctx, pods)
	wall := time.Since(start)
	cpu := cpuSeconds() - cpu0
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return result{}, fmt.Errorf("solve: %w", err)
	}
	out := result{Pods: len(pods), NodeClaims: []nodeClaim{}, SetupSeconds: setup.Seconds(), SolveSeconds: wall.Seconds(), SolveCPUSeconds: cpu}
	for _, nc := range res.NewNodeClaims {
		c := describe(nc)
		out.NodeClaims = append(out.NodeClaims, c)
		out.Cost += c.Price
	}
	out.Unscheduled = len(res.PodErrors)
	for p, e := range res.PodErrors {
		if len(out.Errors) < 5 {
			out.Errors = append(out.Errors, fmt.Sprintf("%s/%s: %s", p.Namespace, p.Name, e))
		}
	}
	return out, nil
}

// describe prices a NodeClaim at the cheapest available offering its requirements allow among its options.
func describe(nc *scheduling.NodeClaim) nodeClaim {
	c := nodeClaim{NodePool: nc.NodePoolName, Pods: len(nc.Pods), Options: len(nc.InstanceTypeOptions)}
	var best *cloudprovider.Offering
	for _, it := range nc.InstanceTypeOptions {
		o := it.Offerings.Available().Compatible(nc.Requirements).Cheapest()
		if o != nil && (best == nil || o.Price < best.Price) {
			best, c.InstanceType = o, it.Name
		}
	}
	if best != nil {
		c.Price, c.Zone, c.CapacityType = best.Price, best.Zone(), best.CapacityType()
	}
	return c
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

