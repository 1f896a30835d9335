#!/usr/bin/env bash
# Makes sure Debian's Chromium and its matching ChromeDriver are installed.
# Installs them with apt when missing and running as root; otherwise says what to do.
set -euo pipefail

if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "Chromium and ChromeDriver are needed: sudo apt-get install chromium chromium-driver" >&2
  exit 1
fi
echo "Installing Chromium and ChromeDriver from Debian (once)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
command -v chromium >/dev/null && command -v chromedriver >/dev/null
