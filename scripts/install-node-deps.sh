#!/usr/bin/env bash
# Node.js and npm for the ecosystem checks (make lint-openapi, contract-test, mcp-test):
# Redocly CLI, Spectral, Prism, the MCP SDK client, the MCP Inspector's CLI,
# openapi-typescript, openapi-fetch and TypeScript, pinned in package.json /
# package-lock.json.
# The machine image has Node 20 and npm; without them, Debian's packages are installed.
# Idempotent: does nothing (and needs no network) when node and npm are there.
set -euo pipefail

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "install-node-deps: installing nodejs npm"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends nodejs npm
fi

# @redocly/cli needs Node >= 20.19 (Prism and the MCP SDK need >= 18).
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number);
              process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  echo "install-node-deps: Node $(node --version) is too old; Node >= 20.19 is needed" >&2
  exit 1
fi
