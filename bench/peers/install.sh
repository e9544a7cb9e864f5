#!/usr/bin/env bash
# Installs the peer gateways of bench/peers (Hive Gateway and the Hive Router runtime, the versions
# pinned in package.json and package-lock.json) into bench/peers/node_modules: nothing enters the
# service's own package.json or package-lock.json. Run from anywhere: bash bench/peers/install.sh
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
