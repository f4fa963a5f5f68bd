#!/usr/bin/env bash
# Refreshes the pinned copy of Karpenter's CRDs that src/api/crds/upstream-parity.test.ts compares Tenon's with.
# Usage: scripts/refresh-upstream-crds.sh [VERSION] [GO_TOOLCHAIN]   (defaults: v1.15.1, go1.26.10)
# Reaches only the Go module proxy, through `go mod download`, in a scratch module outside the repository.
set -euo pipefail
version="${1:-v1.15.1}"
toolchain="${2:-go1.26.10}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
printf 'module upstreamcrds\n\ngo 1.26\n\nrequire github.com/aws/karpenter-provider-aws %s\n' "$version" > go.mod
dir="$(GOTOOLCHAIN="$toolchain" GOFLAGS=-mod=mod go mod download -json "github.com/aws/karpenter-provider-aws@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
if [ -z "$dir" ] || [ ! -d "$dir/pkg/apis/crds" ]; then
  echo "error: no pkg/apis/crds in github.com/aws/karpenter-provider-aws@$version" >&2
  exit 1
fi
out="$repo/test/fixtures/upstream-crds/$version"
mkdir -p "$out"
rm -f "$out"/*.yaml
cp "$dir"/pkg/apis/crds/*.yaml "$out"/
chmod 644 "$out"/*.yaml
echo "copied $(ls "$out"/*.yaml | wc -l) CRDs into $out"
echo "point src/api/crds/upstream-parity.test.ts at $version if it changed"
