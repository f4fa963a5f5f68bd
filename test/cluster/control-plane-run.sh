# Sourced by control-plane.sh: `up`, `down`, `status` and `env` of the real control plane.
#
# Everything listens on 127.0.0.1 only, on fixed ports below Linux's ephemeral range (32768-60999) so they
# cannot collide with the port-0 servers tests start; each port can be moved with an environment variable.
# State lives in $TENON_CLUSTER_DIR (default ~/.cache/tenon/run): certificates, keys and tokens are kept
# across runs, etcd's data is not (every `up` starts an empty cluster).

RUN="${TENON_CLUSTER_DIR:-$CACHE/run}"
ETCD_PORT="${TENON_ETCD_PORT:-24379}"
ETCD_PEER_PORT="${TENON_ETCD_PEER_PORT:-24380}"
APISERVER_PORT="${TENON_APISERVER_PORT:-24443}"
KCM_PORT="${TENON_KCM_PORT:-24257}"
SCHEDULER_PORT="${TENON_SCHEDULER_PORT:-24259}"
# The shared 2-core machine can take minutes to start a cold kube-apiserver.
UP_TIMEOUT="${TENON_CLUSTER_TIMEOUT:-300}"
CRDS_DIR="${TENON_CRDS_DIR:-$HERE/../../charts/tenon/crds}"
COMPONENTS="etcd kube-apiserver kube-controller-manager kube-scheduler"
# The workload and node controllers every cluster runs (Tenon's simulated world brings volumes and the CCM).
KCM_CONTROLLERS="node-lifecycle-controller,taint-eviction-controller,deployment-controller,replicaset-controller,statefulset-controller,daemonset-controller,job-controller,cronjob-controller,ttl-after-finished-controller,disruption-controller,garbage-collector-controller,namespace-controller,serviceaccount-controller,serviceaccount-token-controller,root-ca-certificate-publisher-controller,clusterrole-aggregation-controller,pod-garbage-collector-controller"
SERVICE_CIDR="10.96.0.0/16"

pki() { printf '%s/pki/%s' "$RUN" "$1"; }

# A CA, the API server's serving certificate, the service-account signing key and three bearer tokens.
make_credentials() {
  mkdir -p "$RUN/pki"
  chmod 700 "$RUN" "$RUN/pki"
  if [ ! -f "$(pki ca.crt)" ]; then
    log "generating a CA, the API server's certificate and the service-account key in $RUN/pki"
    openssl req -x509 -new -nodes -newkey rsa:2048 -sha256 -days 3650 -subj "/CN=tenon-test-ca" \
      -keyout "$(pki ca.key)" -out "$(pki ca.crt)" 2>/dev/null
    printf '%s\n' "subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local" \
      "extendedKeyUsage=serverAuth" "keyUsage=critical,digitalSignature,keyEncipherment" >"$(pki apiserver.ext)"
    openssl req -new -nodes -newkey rsa:2048 -subj "/CN=kube-apiserver" -keyout "$(pki apiserver.key)" -out "$(pki apiserver.csr)" 2>/dev/null
    openssl x509 -req -sha256 -days 3650 -in "$(pki apiserver.csr)" -CA "$(pki ca.crt)" -CAkey "$(pki ca.key)" -CAcreateserial \
      -extfile "$(pki apiserver.ext)" -out "$(pki apiserver.crt)" 2>/dev/null
    openssl genrsa -out "$(pki sa.key)" 2048 2>/dev/null
    openssl rsa -in "$(pki sa.key)" -pubout -out "$(pki sa.pub)" 2>/dev/null
  fi
  if [ ! -f "$(pki tokens.csv)" ]; then
    # token,user,uid,"groups": the admin is in system:masters; the two components use the identities the
    # default RBAC policy already binds (system:kube-controller-manager, system:kube-scheduler).
    {
      printf '%s,admin,admin,"system:masters"\n' "$(openssl rand -hex 24)"
      printf '%s,system:kube-controller-manager,kcm\n' "$(openssl rand -hex 24)"
      printf '%s,system:kube-scheduler,scheduler\n' "$(openssl rand -hex 24)"
    } >"$(pki tokens.csv)"
  fi
  chmod 600 "$RUN"/pki/*
}

token_of() { awk -F, -v u="$1" '$2 == u { print $1 }' "$(pki tokens.csv)"; }

# A kubeconfig for one user, written 0600.
write_kubeconfig() {
  local file="$1" user="$2" ca
  ca="$(base64 -w0 <"$(pki ca.crt)")"
  (
    umask 077
    cat >"$file" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: tenon-cluster
  cluster:
    server: https://127.0.0.1:$APISERVER_PORT
    certificate-authority-data: $ca
users:
- name: $user
  user:
    token: $(token_of "$user")
contexts:
- name: tenon-cluster
  context:
    cluster: tenon-cluster
    user: $user
current-context: tenon-cluster
YAML
  )
  chmod 600 "$file"
}

pid_file() { printf '%s/pids/%s.pid' "$RUN" "$1"; }

# The pid of a running component we started (the pid file names it and the process is still that binary).
running_pid() {
  local f pid
  f="$(pid_file "$1")"
  [ -f "$f" ] || return 1
  pid="$(cat "$f")"
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "/$1 " || return 1
  printf '%s' "$pid"
}

# Starts a component in its own session (so `down` can end it and any children as one process group).
start() {
  local name="$1"; shift
  setsid "$@" >"$RUN/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$(pid_file "$name")"
}

port_free() { [ -z "$(ss -ltnH "sport = :$1" 2>/dev/null)" ]; }

fail_with_log() {
  log "$1"
  [ -f "$RUN/logs/$2.log" ] && tail -n 30 "$RUN/logs/$2.log" >&2
  down
  exit 1
}

# Waits until `check` succeeds, failing early with the component's log when its process has died.
wait_for() {
  local name="$1" what="$2"; shift 2
  local deadline=$((SECONDS + UP_TIMEOUT))
  until "$@" >/dev/null 2>&1; do
    running_pid "$name" >/dev/null || fail_with_log "$name exited while waiting for $what" "$name"
    [ "$SECONDS" -lt "$deadline" ] || fail_with_log "$name: no $what after ${UP_TIMEOUT}s (TENON_CLUSTER_TIMEOUT)" "$name"
    sleep 1
  done
}

api() {
  local path="$1"; shift
  # (A user agent other than curl's: the API server pretty-prints JSON for curl, and the checks grep compact JSON.)
  curl -sf -A tenon-control-plane --cacert "$(pki ca.crt)" -H "Authorization: Bearer $(token_of admin)" "$@" "https://127.0.0.1:$APISERVER_PORT$path"
}

healthz() { curl -skf "https://127.0.0.1:$1/healthz" | grep -qx ok; }
etcd_healthy() { curl -sf "http://127.0.0.1:$ETCD_PORT/health" | grep -q '"health":"true"'; }
api_ready() { api /readyz | grep -qx ok; }
default_service_account() { api /api/v1/namespaces/default/serviceaccounts/default >/dev/null; }
crd_established() { api "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/$1" | grep -q '"type":"Established","status":"True"'; }

install_crds() {
  local f name
  for f in "$CRDS_DIR"/*.yaml; do
    name="$(sed -n 's/^  name: //p' "$f" | head -n1)"
    api /apis/apiextensions.k8s.io/v1/customresourcedefinitions -X POST -H 'Content-Type: application/yaml' --data-binary "@$f" >/dev/null ||
      fail_with_log "could not create the CRD in $f" kube-apiserver
    wait_for kube-apiserver "CRD $name Established" crd_established "$name"
  done
}

start_etcd() {
  rm -rf "$RUN/etcd"
  # No fsync: the data is thrown away at the next `up`, and fsync stalls on a shared disk slow every test.
  start etcd "$ETCD_BIN/etcd" --name tenon --data-dir "$RUN/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "tenon=http://127.0.0.1:$ETCD_PEER_PORT" --unsafe-no-fsync --log-level warn
  wait_for etcd "health" etcd_healthy
}

start_apiserver() {
  start kube-apiserver "$BIN/kube-apiserver" --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$APISERVER_PORT" \
    --tls-cert-file "$(pki apiserver.crt)" --tls-private-key-file "$(pki apiserver.key)" --client-ca-file "$(pki ca.crt)" \
    --cert-dir "$RUN/pki" --token-auth-file "$(pki tokens.csv)" --authorization-mode Node,RBAC \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$(pki sa.pub)" --service-account-signing-key-file "$(pki sa.key)" \
    --service-cluster-ip-range "$SERVICE_CIDR" --allow-privileged=true --profiling=false \
    --endpoint-reconciler-type none
  # (No endpoint reconciler: an Endpoints object may not hold a loopback address.)
  wait_for kube-apiserver "/readyz ok" api_ready
}

# A silent node goes Unknown after 20 s of wall time, checked every 2 s, instead of 50 s checked every 5 s. Scenario
# runs pace simulated time at 30x the wall clock, so the default grace would be 25 simulated minutes before a node
# repair's toleration even starts (the simulated node lifecycle waits 50 simulated seconds). 20 s is still twice the
# lease renewal of `tenon controller --cloud-provider fake`'s kubelets, which run on the wall clock.
# Its client may send 100 requests a second, bursts of 200 (the defaults are 20 and 30), as large clusters run it:
# at the defaults a StatefulSet of 100 pods, each with its claim, takes kube-controller-manager about 10 s to
# create, in waves, and S4 is about where the volumes are, not about how the pods' arrival is batched.
start_controller_manager() {
  start kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig "$RUN/kcm.kubeconfig" \
    --authentication-kubeconfig "$RUN/kcm.kubeconfig" --authorization-kubeconfig "$RUN/kcm.kubeconfig" \
    --bind-address 127.0.0.1 --secure-port "$KCM_PORT" --leader-elect=false --controllers "$KCM_CONTROLLERS" \
    --use-service-account-credentials --service-account-private-key-file "$(pki sa.key)" --root-ca-file "$(pki ca.crt)" \
    --service-cluster-ip-range "$SERVICE_CIDR" --profiling=false \
    --node-monitor-grace-period 20s --node-monitor-period 2s --kube-api-qps 100 --kube-api-burst 200
  wait_for kube-controller-manager "/healthz ok" healthz "$KCM_PORT"
}

start_scheduler() {
  start kube-scheduler "$BIN/kube-scheduler" --kubeconfig "$RUN/scheduler.kubeconfig" \
    --authentication-kubeconfig "$RUN/scheduler.kubeconfig" --authorization-kubeconfig "$RUN/scheduler.kubeconfig" \
    --bind-address 127.0.0.1 --secure-port "$SCHEDULER_PORT" --leader-elect=false --profiling=false
  wait_for kube-scheduler "/healthz ok" healthz "$SCHEDULER_PORT"
}

up() {
  local c port
  for c in $COMPONENTS; do
    if running_pid "$c" >/dev/null; then log "$c already runs (pid $(running_pid "$c")); run \`$0 down\` first"; exit 1; fi
  done
  [ -x "$ETCD_BIN/etcd" ] && [ -x "$BIN/kube-apiserver" ] || { log "binaries missing: run \`$0 build\` first"; exit 1; }
  for port in "$ETCD_PORT" "$ETCD_PEER_PORT" "$APISERVER_PORT" "$KCM_PORT" "$SCHEDULER_PORT"; do
    # A component of a failed start may still hold its port for a while (kube-apiserver retries etcd for 20 s).
    for _ in $(seq 1 30); do port_free "$port" && break; sleep 1; done
    port_free "$port" || { log "port $port on 127.0.0.1 is in use (move it with TENON_*_PORT, see $HERE/control-plane-run.sh)"; exit 1; }
  done
  mkdir -p "$RUN/logs" "$RUN/pids"
  make_credentials
  write_kubeconfig "$RUN/kubeconfig" admin
  write_kubeconfig "$RUN/kcm.kubeconfig" system:kube-controller-manager
  write_kubeconfig "$RUN/scheduler.kubeconfig" system:kube-scheduler
  log "starting etcd $ETCD_VERSION and kubernetes $K8S_VERSION on 127.0.0.1 (logs in $RUN/logs)"
  start_etcd
  start_apiserver
  start_controller_manager
  start_scheduler
  install_crds
  wait_for kube-controller-manager "the default ServiceAccount" default_service_account
  log "up: https://127.0.0.1:$APISERVER_PORT, kubeconfig $RUN/kubeconfig"
}

# Stops every component: SIGTERM to its process group, then SIGKILL after 10 s. Safe to run twice.
down() {
  local c pid pgid i
  for c in kube-scheduler kube-controller-manager kube-apiserver etcd; do
    pid="$(running_pid "$c")" || { rm -f "$(pid_file "$c")"; continue; }
    pgid="$(ps -o pgid= -p "$pid" | tr -d ' ')"
    if [ "$pgid" = "$pid" ]; then kill -TERM -- "-$pgid" 2>/dev/null || true; else kill -TERM "$pid" 2>/dev/null || true; fi
    for i in $(seq 1 100); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
    if [ -d "/proc/$pid" ]; then
      log "$c (pid $pid) ignored SIGTERM for 10s; killing it"
      if [ "$pgid" = "$pid" ]; then kill -KILL -- "-$pgid" 2>/dev/null || true; else kill -KILL "$pid" 2>/dev/null || true; fi
    fi
    rm -f "$(pid_file "$c")"
    log "stopped $c"
  done
}

status() {
  local c pid down=0
  for c in $COMPONENTS; do
    if pid="$(running_pid "$c")"; then printf '%-24s running (pid %s)\n' "$c" "$pid"; else printf '%-24s stopped\n' "$c"; down=1; fi
  done
  if [ "$down" = 0 ] && api_ready; then echo "API server: https://127.0.0.1:$APISERVER_PORT ready; kubeconfig $RUN/kubeconfig"; else exit 1; fi
}

print_env() { printf 'export TENON_CLUSTER_KUBECONFIG=%q\n' "$RUN/kubeconfig"; }
