#!/usr/bin/env bash
# Makes sure Debian's Chromium and its matching ChromeDriver are installed.
# Installs them with apt when missing and running as root; otherwise says what to do.
exec "$(dirname "$0")/ensure-debian-packages.sh" "Chromium and ChromeDriver are needed" "chromium chromedriver" chromium chromium-driver
