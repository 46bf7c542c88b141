#!/usr/bin/env bash
# The read tier of docs/scaling.md on one machine: one authority, three followers (nodes without a
# key) and HAProxy in front of the followers' HTTP ports, configured from deploy/haproxy.cfg.template.
# Runs in the foreground; Ctrl-C stops every process it started.
#
# Usage: deploy/read-tier.sh [DIR]   (default /tmp/ombra-tier; wiped and recreated)
#        deploy/read-tier.sh --ports  (prints the ports it would use, and exits)
# Ports, from the environment (defaults clear of the README's `--port-base 8001` network):
#   reads and streams:  OMBRA_TIER_PORT (8080)
#   HAProxy stats:      OMBRA_TIER_STATS_PORT (8404)
#   nodes:              OMBRA_TIER_PORT_BASE (8600): the authority's HTTP port is the base, the
#                       followers' base+1..3; p2p ports are those +100, metrics ports +200
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lb_port=${OMBRA_TIER_PORT:-8080}
stats_port=${OMBRA_TIER_STATS_PORT:-8404}
base=${OMBRA_TIER_PORT_BASE:-8600}
for p in "$lb_port" "$stats_port" "$base"; do
  [[ $p =~ ^[0-9]+$ ]] && ((p > 0 && p <= 65535 - 203)) || { echo "bad port: $p (OMBRA_TIER_PORT, OMBRA_TIER_STATS_PORT, OMBRA_TIER_PORT_BASE)" >&2; exit 2; }
done
http_port() { echo $((base + $1)); }    # node 0 is the authority, 1..3 the followers
p2p_port() { echo $((base + 100 + $1)); }
metrics_port() { echo $((base + 200 + $1)); }
if [[ ${1:-} == --ports ]]; then
  echo "balancer $lb_port stats $stats_port"
  for i in 0 1 2 3; do echo "node$i http $(http_port "$i") p2p $(p2p_port "$i") metrics $(metrics_port "$i")"; done
  exit 0
fi
dir=${1:-/tmp/ombra-tier}
# The project's Node (24, from the `node` npm package), run directly so that each pid below is the node's.
node24=$(cd "$root" && npx node -p process.execPath)
ombra() { "$node24" "$root/cli/bin.js" "$@"; }
# Run with & only: the background subshell becomes the node, so its pid is the one to stop.
start_node() { exec "$node24" "$root/cli/bin.js" start "$@"; }
command -v haproxy >/dev/null || { echo "haproxy not found: apt-get install -y haproxy" >&2; exit 1; }

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Waits until GET $1 answers 200.
wait_http() {
  for _ in $(seq 1 100); do
    curl -sf "$1" >/dev/null && return 0
    sleep 0.2
  done
  echo "no answer from $1; logs in $dir" >&2
  exit 1
}

rm -rf "$dir" && mkdir -p -m 700 "$dir"
ombra testnet --nodes 1 --out "$dir" --block-time-ms 1000 >/dev/null
genesis="$dir/genesis.json"
# The tier's two secrets, in files only this user reads: the API key secret every node holds (a
# key issued by any node is valid on all of them) and the token HAProxy shows the followers (they
# believe its X-Forwarded-For only with it, not anything else from 127.0.0.1).
umask 077
"$node24" -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("hex"))' >"$dir/api-key.secret"
"$node24" -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("hex"))' >"$dir/proxy.token"

start_node --genesis "$genesis" --key-file "$dir/node0/key.json" --data-dir "$dir/authority" \
  --api-key-secret-file "$dir/api-key.secret" \
  --http-port "$(http_port 0)" --p2p-port "$(p2p_port 0)" --metrics-addr "127.0.0.1:$(metrics_port 0)" 2>"$dir/authority.log" &
pids+=($!)
wait_http "http://127.0.0.1:$(http_port 0)/api/health"
peer=$(curl -s "http://127.0.0.1:$(http_port 0)/api/chain/network" | node -pe 'JSON.parse(require("fs").readFileSync(0)).addresses[0]')

servers=""
for i in 1 2 3; do
  # Behind the balancer: its X-Forwarded-For (believed only with the token) names the client for
  # rate limits and logs; the per-IP connection cap exempts the trusted proxy, not its clients.
  start_node --genesis "$genesis" --data-dir "$dir/follower$i" --peer "$peer" \
    --http-port "$(http_port "$i")" --p2p-port "$(p2p_port "$i")" --metrics-addr "127.0.0.1:$(metrics_port "$i")" \
    --trusted-proxy 127.0.0.1 --trusted-proxy-token-file "$dir/proxy.token" \
    --api-key-secret-file "$dir/api-key.secret" 2>"$dir/follower$i.log" &
  pids+=($!)
  servers+="    server follower$i 127.0.0.1:$(http_port "$i") check"$'\n'
done
for i in 1 2 3; do wait_http "http://127.0.0.1:$(http_port "$i")/api/health"; done

# The template's placeholders: the balancer's and the stats page's addresses, the server lines,
# the proxy token (the rendered file holds it: 0600 under this umask).
awk -v listen="127.0.0.1:$lb_port" -v stats="127.0.0.1:$stats_port" -v servers="${servers%$'\n'}" \
  -v token="$(cat "$dir/proxy.token")" '
  /^@SERVERS@$/ { print servers; next }
  { sub(/@LISTEN@$/, listen); sub(/@STATS@$/, stats); gsub(/@PROXY_TOKEN@/, token); print }
' "$root/deploy/haproxy.cfg.template" >"$dir/haproxy.cfg"
haproxy -c -q -f "$dir/haproxy.cfg"
haproxy -db -f "$dir/haproxy.cfg" 2>"$dir/haproxy.log" &
pids+=($!)
wait_http "http://127.0.0.1:$lb_port/api/health"

cat <<INFO
read tier up (logs in $dir):
  reads, streams, writes  http://127.0.0.1:$lb_port      e.g. npx ombra tail --url http://127.0.0.1:$lb_port
  HAProxy stats           http://127.0.0.1:$stats_port/stats
  authority               http://127.0.0.1:$(http_port 0)
  followers               http://127.0.0.1:$(http_port 1) $(http_port 2) $(http_port 3)
Ctrl-C stops everything.
INFO
wait -n "${pids[@]}"
echo "a process of the tier exited; stopping the rest (logs in $dir)" >&2
