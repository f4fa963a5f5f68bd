#!/usr/bin/env bash
# `npm run test:cluster`: builds the real control plane (cached after the first time), brings it up, runs the
# suites under test/cluster against it and brings it down again, whatever they did. Extra arguments go to vitest.
set -euo pipefail
cd "$(dirname "$0")/../.."
plane=test/cluster/control-plane.sh
"$plane" build
test/cluster/helm.sh build
trap '"$plane" down' EXIT
# A component that dies while the plane comes up (seen once on a loaded machine) gets one more try.
"$plane" up || { "$plane" down; "$plane" up; }
eval "$("$plane" env)"
export TENON_CLUSTER_KUBECONFIG
# The suites start `tenon` as a separate process; a fresh build keeps it from transpiling sources on each start.
node scripts/build.mjs
npx vitest run --config test/cluster/vitest.config.ts "$@"
