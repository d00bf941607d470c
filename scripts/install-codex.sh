#!/usr/bin/env bash
# install-codex.sh installs the OpenAI Codex CLI that the Codex tests drive
# (internal/rig/codextest) into a private cache directory, and prints the path
# of its native binary. It installs the pinned version only. Running it
# again is cheap: an install that already reports the pinned version is
# kept.
#
# Usage: scripts/install-codex.sh
# Env:   CODEMAN_E2E_CODEX_DIR  install prefix (default
#                               ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e-codex)
set -euo pipefail

pinned=0.171.0 # see docs/codex.md

if [ $# -gt 0 ]; then
	echo "install-codex.sh: takes no arguments; it installs the pinned version $pinned" >&2
	exit 2
fi

case "$(uname -s)/$(uname -m)" in
Linux/x86_64) triple=x86_64-unknown-linux-musl platform=linux-x64 ;;
Linux/aarch64) triple=aarch64-unknown-linux-musl platform=linux-arm64 ;;
*)
	echo "install-codex.sh: no Codex build for $(uname -s)/$(uname -m) is used by the tests" >&2
	exit 1
	;;
esac

cache=${XDG_CACHE_HOME:-$HOME/.cache}
prefix=${CODEMAN_E2E_CODEX_DIR:-$cache/codeman-e2e-codex}
# The native binary of the platform package, which @openai/codex pulls in
# under an alias; the JS wrapper only finds and execs it.
bin=$prefix/node_modules/@openai/codex-$platform/vendor/$triple/bin/codex

installed_version() {
	[ -x "$bin" ] || return 1
	# "codex-cli 0.171.0"
	"$bin" --version 2>/dev/null | awk '{print $2}'
}

if [ "$(installed_version || true)" = "$pinned" ]; then
	echo "$bin"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	echo "install-codex.sh: npm not found; install Node.js and npm (Debian: apt-get install npm) and run this again" >&2
	exit 1
fi

mkdir -p "$prefix"
cd "$prefix"
# A package.json of our own keeps npm from walking up into an unrelated
# project; --no-save leaves it untouched on later runs.
[ -f package.json ] || echo '{"name":"codeman-e2e-codex","private":true}' >package.json
npm install --no-save --no-audit --no-fund --loglevel=error "@openai/codex@$pinned" >&2

got=$(installed_version || true)
if [ "$got" != "$pinned" ]; then
	echo "install-codex.sh: $bin reports version '${got:-none}', want $pinned" >&2
	exit 1
fi
echo "$bin"
