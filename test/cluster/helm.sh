#!/usr/bin/env bash
# helm for the chart tests, built from the Go module proxy (no binary downloads) and cached outside the tree.
#   helm.sh build   build (or reuse) $TENON_CACHE/bin/helm-$HELM_VERSION/helm
#   helm.sh path    print that path (building first when missing)
#   helm.sh ARGS    run helm with ARGS
set -euo pipefail

HELM_VERSION="${HELM_VERSION:-v3.22.0}"
CACHE="${TENON_CACHE:-$HOME/.cache/tenon}"
BIN="$CACHE/bin/helm-$HELM_VERSION"

log() { printf '[helm] %s\n' "$*" >&2; }

build() {
  if [ -x "$BIN/helm" ]; then return; fi
  local src="$CACHE/src/helm-$HELM_VERSION"
  mkdir -p "$src" "$BIN"
  # A module of our own that requires helm, so helm's go.mod pins every dependency (go install would refuse
  # a module with replace directives, and this keeps the build reproducible the same way).
  cat >"$src/go.mod" <<MOD
module tenon.local/helm-build

go 1.24

require helm.sh/helm/v3 $HELM_VERSION
MOD
  cat >"$src/tools.go" <<'GO'
//go:build tools

// Package tools pins the helm command this module builds.
package tools

import _ "helm.sh/helm/v3/cmd/helm"
GO
  log "building helm $HELM_VERSION from the Go module proxy (a few minutes on 2 cores)"
  (cd "$src" && go mod tidy && CGO_ENABLED=0 nice go build -trimpath \
    -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION" -o "$BIN/helm.tmp" helm.sh/helm/v3/cmd/helm)
  mv "$BIN/helm.tmp" "$BIN/helm"
  log "helm $HELM_VERSION: $BIN/helm"
}

case "${1:-}" in
  build) build ;;
  path) build; echo "$BIN/helm" ;;
  *) build; exec "$BIN/helm" "$@" ;;
esac
