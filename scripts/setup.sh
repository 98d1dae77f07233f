#!/usr/bin/env bash
# One-time set-up on a fresh Debian machine (run as root, or with sudo available): the Android host tools the
# simulator and tests use, then the npm dependencies. Safe to run again; it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v adb >/dev/null 2>&1 || missing+=(adb)
command -v aapt >/dev/null 2>&1 || missing+=(aapt)
command -v apksigner >/dev/null 2>&1 || missing+=(apksigner)
[ -f /usr/share/android-framework-res/framework-res.apk ] || missing+=(android-framework-res)
command -v keytool >/dev/null 2>&1 || missing+=(default-jre-headless)
# ssh-keygen signs and checks event log digests (droidwright events digest --sign, verify --allowed-signers).
command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
# The PostgreSQL store's tests run a real server: initdb and pg_ctl in a temp dir, psql for checks.
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm dependencies" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
