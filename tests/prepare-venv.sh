#!/usr/bin/env bash
# prepare-venv.sh DIR: creates the Python venv DIR/.venv from DIR/requirements.txt, or refreshes it when the
# requirements changed since its last install (a stamp in the venv holds their hash); PYTHON picks the interpreter
# (default python3). Used by run-driver-suites.sh and run-secure-suites.sh.
set -uo pipefail
dir="$1"
venv="$dir/.venv" requirements="$dir/requirements.txt"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$requirements" | cut -d' ' -f1)" || exit 1
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    exit 0
fi
printf '[prepare-venv] creating Python venv in %s\n' "$venv"
"${PYTHON:-python3}" -m venv "$venv" || { echo "cannot create the venv $venv" >&2; exit 1; }
timeout 600 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" \
    || { echo "pip could not install $requirements into $venv (or took over 600 s)" >&2; exit 1; }
printf '%s\n' "$want" >"$stamp"
