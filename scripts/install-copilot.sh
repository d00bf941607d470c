#!/usr/bin/env bash
# install-copilot.sh installs the GitHub Copilot CLI that the Copilot work
# drives into a private cache directory, and prints the path of its native
# binary. It installs the pinned version only. Running it again is cheap: an
# install that already reports the pinned version is kept.
#
# The binary is a single executable that unpacks its JavaScript bundle and
# native addons (some 235 MB) on first use into $COPILOT_CACHE_HOME/pkg.
# This script points that at <prefix>/cache, so the unpacking happens here
# once and not in the caller's ~/.cache; runs that want to reuse it set
# COPILOT_CACHE_HOME=<prefix>/cache too (docs/copilot.md).
#
# Usage: scripts/install-copilot.sh
# Env:   CODEMAN_E2E_COPILOT_DIR  install prefix (default
#                                 ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e-copilot)
set -euo pipefail

pinned=1.0.102 # see docs/copilot.md

if [ $# -gt 0 ]; then
	echo "install-copilot.sh: takes no arguments; it installs the pinned version $pinned" >&2
	exit 2
fi

case "$(uname -s)/$(uname -m)" in
Linux/x86_64) arch=x64 ;;
Linux/aarch64) arch=arm64 ;;
*)
	echo "install-copilot.sh: no Copilot CLI build for $(uname -s)/$(uname -m) is used here" >&2
	exit 1
	;;
esac
# @github/copilot pulls in one platform package as an optional dependency:
# copilot-linux-<arch> on glibc, copilot-linuxmusl-<arch> on musl.
libc=linux
if ldd --version 2>&1 | grep -qi musl; then
	libc=linuxmusl
fi

cache=${XDG_CACHE_HOME:-$HOME/.cache}
prefix=${CODEMAN_E2E_COPILOT_DIR:-$cache/codeman-e2e-copilot}
bin=$prefix/node_modules/@github/copilot-$libc-$arch/copilot

installed_version() {
	[ -x "$bin" ] || return 1
	# "GitHub Copilot CLI 1.0.102." then "Run 'copilot update' to check for updates."
	COPILOT_CACHE_HOME=$prefix/cache COPILOT_AUTO_UPDATE=false "$bin" --version 2>/dev/null |
		awk 'NR == 1 { v = $NF; sub(/\.$/, "", v); print v }'
}

if [ "$(installed_version || true)" = "$pinned" ]; then
	echo "$bin"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	echo "install-copilot.sh: npm not found; install Node.js and npm (Debian: apt-get install npm) and run this again" >&2
	exit 1
fi

mkdir -p "$prefix"
cd "$prefix"
# A package.json of our own keeps npm from walking up into an unrelated
# project; --no-save leaves it untouched on later runs.
[ -f package.json ] || echo '{"name":"codeman-e2e-copilot","private":true}' >package.json
npm install --no-save --no-audit --no-fund --loglevel=error "@github/copilot@$pinned" >&2

got=$(installed_version || true)
if [ "$got" != "$pinned" ]; then
	echo "install-copilot.sh: $bin reports version '${got:-none}', want $pinned" >&2
	exit 1
fi
echo "$bin"
