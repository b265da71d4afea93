#!/usr/bin/env bash
# install-tools.sh — put the real tools the test suite drives on this machine (Debian packages), once.
# zstd: compressed collector files; jq: the benchmark's comparison; prometheus (promtool): alert rules and the
# metrics end-to-end test; prometheus-alertmanager (amtool): the stack's Alertmanager config; chromium: the HTML
# reports and serve's live page. Already-present tools are left alone. On a fresh machine another apt (the
# first boot's unattended upgrades) may hold the package manager's lock: that is waited for, up to
# INSTALL_TOOLS_LOCK_WAIT seconds (300), not failed at once.
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
wait_for=${INSTALL_TOOLS_LOCK_WAIT:-300}

# apt-get, again while another process holds the lock, until `wait_for` seconds have passed.
apt_get() {
  local deadline=$((SECONDS + wait_for)) out told=0
  while true; do
    if out=$(apt-get -o DPkg::Lock::Timeout=30 "$@" 2>&1); then return 0; fi
    if ! grep -qiE 'could not get lock|unable to acquire|unable to lock' <<<"$out" || [ "$SECONDS" -ge "$deadline" ]; then
      echo "$out" >&2
      return 1
    fi
    if [ "$told" -eq 0 ]; then
      echo "install-tools: another package manager holds the lock; waiting up to ${wait_for}s" >&2
      told=1
    fi
    sleep 5
  done
}
apt_get update -qq
apt_get install -y -qq --no-install-recommends "${need[@]}"
