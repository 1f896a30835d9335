#!/usr/bin/env bash
# Makes sure the commands a test browser needs are there, installing the Debian packages that
# bring them with apt when missing and running as root; otherwise says what to do.
#   ensure-debian-packages.sh "<what for>" "<command> ..." <package> ...
set -euo pipefail

what=$1 commands=$2
shift 2
have_all() {
  for command in $commands; do command -v "$command" >/dev/null || return 1; done
}

have_all && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "$what: sudo apt-get install $*" >&2
  exit 1
fi
echo "Installing $* from Debian (once)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "$@" >/dev/null
have_all
