#!/usr/bin/env bash
# Makes sure Debian's Firefox ESR is installed, for the Firefox half of the e2e tests (they
# drive it over WebDriver BiDi, which Firefox speaks itself: no geckodriver is needed).
# Installs it with apt when missing and running as root; otherwise says what to do.
exec "$(dirname "$0")/ensure-debian-packages.sh" "Firefox ESR is needed for the Firefox tests" "firefox-esr" firefox-esr
