#!/usr/bin/env bash
# install-tools.sh — put the real tools the test suite drives on this machine (Debian packages), once.
# zstd: compressed collector files; jq: the benchmark's comparison; prometheus (promtool): alert rules and the
# metrics end-to-end test; prometheus-alertmanager (amtool): the stack's Alertmanager config; chromium: the HTML
# report. Already-present tools are left alone.
set -euo pipefail
need=()
command -v zstd >/dev/null || need+=(zstd)
command -v jq >/dev/null || need+=(jq)
command -v promtool >/dev/null || need+=(prometheus)
command -v amtool >/dev/null || need+=(prometheus-alertmanager)
command -v chromium >/dev/null || need+=(chromium)
[ "${#need[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "routescope tests need these Debian packages: ${need[*]} (run: sudo apt-get install ${need[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
