#!/usr/bin/env bash
# Debian's chromium for the playground's browser test (make browser-test),
# driven headless by playwright-core (pinned in package.json). Playwright's own browser
# download is never used: Debian packages only. Idempotent: does nothing (and needs no
# network) when chromium is installed.
set -euo pipefail

if dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed"; then
  exit 0
fi
echo "install-browser-deps: installing chromium"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core
