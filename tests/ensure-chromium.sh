#!/usr/bin/env bash
# Makes sure a headless browser is there for ConsoleIT (docs/console.md): installs Debian's chromium when it is
# missing and this is root with apt-get. It never fails the run: where it cannot install, it says so, and ConsoleIT
# skips itself with the same reason.
set -uo pipefail
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then exit 0; fi
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "[ballot] no chromium, and no root apt-get to install it: ConsoleIT will be skipped (apt-get install -y chromium)"
    exit 0
fi
echo "[ballot] installing chromium for ConsoleIT (apt-get) ..."
log="$(mktemp)"
if (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium) >"$log" 2>&1; then
    echo "[ballot] chromium installed: $(chromium --version 2>/dev/null)"
else
    echo "[ballot] could not install chromium: ConsoleIT will be skipped; apt-get said:"
    tail -5 "$log"
fi
rm -f "$log"
exit 0
