#!/usr/bin/env bash
# Makes sure Debian's Firefox ESR is installed, for the Firefox half of the e2e tests (they
# drive it over WebDriver BiDi, which Firefox speaks itself: no geckodriver is needed).
# Installs it with apt when missing and running as root; otherwise says what to do.
set -euo pipefail

if command -v firefox-esr >/dev/null; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "Firefox ESR is needed for the Firefox tests: sudo apt-get install firefox-esr" >&2
  exit 1
fi
echo "Installing Firefox ESR from Debian (once)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends firefox-esr >/dev/null
command -v firefox-esr >/dev/null
