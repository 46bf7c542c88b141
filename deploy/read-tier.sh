#!/usr/bin/env bash
# The read tier of docs/scaling.md on one machine: one authority, three followers (nodes without a
# key) and HAProxy in front of the followers' HTTP ports, configured from deploy/haproxy.cfg.template.
# Runs in the foreground; Ctrl-C stops every process it started.
#
# Usage: deploy/read-tier.sh [DIR]   (default /tmp/ombra-tier; wiped and recreated)
#   reads and streams:  http://127.0.0.1:8080   (OMBRA_TIER_PORT)
#   HAProxy stats:      http://127.0.0.1:8404/stats
#   authority:          http://127.0.0.1:8001   (writes also go through the balancer)
#   followers:          http://127.0.0.1:8011..8013, p2p 8111..8113, metrics 9511..9513
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/tmp/ombra-tier}
lb_port=${OMBRA_TIER_PORT:-8080}
stats_port=${OMBRA_TIER_STATS_PORT:-8404}
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
  --http-port 8001 --p2p-port 8101 --metrics-addr 127.0.0.1:9501 2>"$dir/authority.log" &
pids+=($!)
wait_http http://127.0.0.1:8001/api/health
peer=$(curl -s http://127.0.0.1:8001/api/chain/network | node -pe 'JSON.parse(require("fs").readFileSync(0)).addresses[0]')

servers=""
for i in 1 2 3; do
  # Behind the balancer: its X-Forwarded-For (believed only with the token) names the client for
  # rate limits and logs; the per-IP connection cap exempts the trusted proxy, not its clients.
  start_node --genesis "$genesis" --data-dir "$dir/follower$i" --peer "$peer" \
    --http-port $((8010 + i)) --p2p-port $((8110 + i)) --metrics-addr 127.0.0.1:$((9510 + i)) \
    --trusted-proxy 127.0.0.1 --trusted-proxy-token-file "$dir/proxy.token" \
    --api-key-secret-file "$dir/api-key.secret" 2>"$dir/follower$i.log" &
  pids+=($!)
  servers+="    server follower$i 127.0.0.1:$((8010 + i)) check"$'\n'
done
for i in 1 2 3; do wait_http "http://127.0.0.1:$((8010 + i))/api/health"; done

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
  authority               http://127.0.0.1:8001
  followers               http://127.0.0.1:8011 8012 8013
Ctrl-C stops everything.
INFO
wait -n "${pids[@]}"
echo "a process of the tier exited; stopping the rest (logs in $dir)" >&2
