#!/usr/bin/env bash
# Installs Debian's chromium for the browser test of the HTML animation
# (crates/mbs/tests/animate_browser.rs). Idempotent: does nothing when a chromium
# binary is already on PATH. Needs root (or sudo) and the Debian package archive.
set -euo pipefail
for b in chromium chromium-browser; do
    if command -v "$b" >/dev/null 2>&1; then
        echo "chromium.sh: $(command -v "$b") is installed ($("$b" --version 2>/dev/null || echo 'version unknown'))"
        exit 0
    fi
done
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# fonts-dejavu-core: a font for the page's labels (chromium draws nothing without one)
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core
echo "chromium.sh: installed $(chromium --version 2>/dev/null || echo chromium)"
