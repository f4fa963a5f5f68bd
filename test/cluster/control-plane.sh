#!/usr/bin/env bash
# A real Kubernetes control plane for the test bed: pinned etcd, kube-apiserver, kube-controller-manager and
# kube-scheduler, built from the Go module proxy and cached outside the work tree.
#   control-plane.sh build   build (or reuse) the binaries under $TENON_CACHE/bin
#   control-plane.sh up      start them on 127.0.0.1 (see `up` below) and write a kubeconfig
#   control-plane.sh down    stop them (and keep nothing: the next `up` starts from an empty etcd)
#   control-plane.sh status  which components run, and whether they answer
#   control-plane.sh env     the KUBECONFIG line a shell or test runner can eval
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-v1.33.13}"
ETCD_VERSION="${ETCD_VERSION:-v3.5.21}"
CACHE="${TENON_CACHE:-$HOME/.cache/tenon}"
BIN="$CACHE/bin/k8s-$K8S_VERSION"
ETCD_BIN="$CACHE/bin/etcd-$ETCD_VERSION"
HERE="$(cd "$(dirname "$0")" && pwd)"

log() { printf '[control-plane] %s\n' "$*" >&2; }

# The staging modules k8s.io/kubernetes replaces with ./staging paths; each becomes a real v0.X.Y module.
staging_replaces() {
  local gomod="$1" minor_version="v0.${K8S_VERSION#v1.}"
  grep -E '^\s*k8s.io/[a-z0-9-]+ => \./staging/' "$gomod" | awk -v v="$minor_version" '{print "replace " $1 " => " $1 " " v}'
}

build_kubernetes() {
  if [ -x "$BIN/kube-apiserver" ] && [ -x "$BIN/kube-controller-manager" ] && [ -x "$BIN/kube-scheduler" ]; then
    log "kubernetes $K8S_VERSION: cached in $BIN"; return
  fi
  local src="$CACHE/src/k8s-$K8S_VERSION"
  mkdir -p "$src" "$BIN"
  local upstream
  upstream="$(cd "$src" && GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
  {
    echo "module tenon.local/k8s-build"
    grep -E '^(go|godebug) ' "$upstream"
    echo "require k8s.io/kubernetes $K8S_VERSION"
    staging_replaces "$upstream"
  } >"$src/go.mod"
  cat >"$src/tools.go" <<'GO'
//go:build tools

// Package tools pins the control-plane commands this module builds.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
GO
  (cd "$src" && go mod tidy)
  local minor="${K8S_VERSION#v1.}"; minor="${minor%%.*}"
  local ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$K8S_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/client-go/pkg/version.gitVersion=$K8S_VERSION -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=$minor"
  for cmd in kube-apiserver kube-controller-manager kube-scheduler; do
    log "building $cmd $K8S_VERSION (the first build takes 25-30 minutes on 2 cores)"
    (cd "$src" && CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$BIN/$cmd.tmp" "k8s.io/kubernetes/cmd/$cmd")
    mv "$BIN/$cmd.tmp" "$BIN/$cmd"
  done
}

build_etcd() {
  if [ -x "$ETCD_BIN/etcd" ]; then log "etcd $ETCD_VERSION: cached in $ETCD_BIN"; return; fi
  local src="$CACHE/src/etcd-$ETCD_VERSION"
  mkdir -p "$src" "$ETCD_BIN"
  cat >"$src/go.mod" <<MOD
module tenon.local/etcd-build
go 1.23
require go.etcd.io/etcd/server/v3 $ETCD_VERSION
MOD
  cat >"$src/tools.go" <<'GO'
//go:build tools

// Package tools pins the etcd server this module builds.
package tools

import _ "go.etcd.io/etcd/server/v3"
GO
  (cd "$src" && go mod tidy && go get "go.etcd.io/etcd/api/v3@$ETCD_VERSION" "go.etcd.io/etcd/client/pkg/v3@$ETCD_VERSION" \
    "go.etcd.io/etcd/client/v3@$ETCD_VERSION" "go.etcd.io/etcd/pkg/v3@$ETCD_VERSION" "go.etcd.io/etcd/raft/v3@$ETCD_VERSION" && go mod tidy)
  log "building etcd $ETCD_VERSION"
  (cd "$src" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$ETCD_BIN/etcd.tmp" go.etcd.io/etcd/server/v3)
  mv "$ETCD_BIN/etcd.tmp" "$ETCD_BIN/etcd"
}

# shellcheck source=test/cluster/control-plane-run.sh
. "$HERE/control-plane-run.sh"

case "${1:-}" in
  build) build_etcd; build_kubernetes; log "binaries: $ETCD_BIN $BIN" ;;
  up) up ;;
  down) down ;;
  status) status ;;
  env) print_env ;;
  *) echo "usage: $0 build|up|down|status|env" >&2; exit 2 ;;
esac
