#!/usr/bin/env bash
# Checks a systemd unit with `systemd-analyze verify`, strictly: verify exits 0 on unknown keys and
# unparsable values (it only prints them), so any output fails here. The unit's /opt/ombra paths
# are pointed at this checkout first, so the ExecStart binary exists (after npm ci).
# Usage: deploy/verify-unit.sh [UNIT]   (default deploy/ombra.service)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
unit=${1:-$root/deploy/ombra.service}
if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "systemd-analyze not found: systemd unit check skipped"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copy="$tmp/$(basename "$unit")"
sed "s#/opt/ombra#$root#g" "$unit" >"$copy"
if ! out=$(systemd-analyze verify "$copy" 2>&1) || [ -n "$out" ]; then
  echo "systemd unit $unit is not clean:"
  echo "$out"
  exit 1
fi
echo "systemd unit $unit: ok"
