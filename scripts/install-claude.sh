#!/usr/bin/env bash
# install-claude.sh installs a Claude Code CLI that the end-to-end tests drive
# (internal/rig/claudetest) into a private cache directory, and prints the path of
# its binary. Without an argument it installs the pinned version; the
# previous pin, which CI still runs the end-to-end tests against, is named
# below. Running it again is cheap: an install that already reports the
# wanted version is kept.
#
# Usage: scripts/install-claude.sh [VERSION]
# Env:   CODEMAN_E2E_DIR  install prefix (default ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e
#                         for the pinned version, .../codeman-e2e-VERSION for any other)
set -euo pipefail

pinned=2.1.332
previous=2.1.328 # still tested: see .ci/run and docs/claude-code.md

version=${1:-$pinned}
case $version in
"$pinned" | "$previous") ;;
*)
	echo "install-claude.sh: version $version is neither the pinned $pinned nor the previous $previous" >&2
	exit 2
	;;
esac

cache=${XDG_CACHE_HOME:-$HOME/.cache}
default_prefix=$cache/codeman-e2e
if [ "$version" != "$pinned" ]; then
	# npm keeps one version of a package per prefix, so each version other
	# than the pinned one gets its own.
	default_prefix=$cache/codeman-e2e-$version
fi
prefix=${CODEMAN_E2E_DIR:-$default_prefix}
# The native binary of the platform package; the JS wrapper in
# @anthropic-ai/claude-code wants node >= 22 and is not needed.
bin=$prefix/node_modules/@anthropic-ai/claude-code-linux-x64/claude

installed_version() {
	[ -x "$bin" ] || return 1
	"$bin" --version 2>/dev/null | awk '{print $1}'
}

if [ "$(installed_version || true)" = "$version" ]; then
	echo "$bin"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	echo "install-claude.sh: npm not found; install Node.js and npm (Debian: apt-get install npm) and run this again" >&2
	exit 1
fi

mkdir -p "$prefix"
cd "$prefix"
# A package.json of our own keeps npm from walking up into an unrelated
# project; --no-save leaves it untouched on later runs.
[ -f package.json ] || echo '{"name":"codeman-e2e","private":true}' >package.json
# EBADENGINE (node < 22) only concerns the JS wrapper, so it is not fatal.
npm install --no-save --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$version" >&2

got=$(installed_version || true)
if [ "$got" != "$version" ]; then
	echo "install-claude.sh: $bin reports version '${got:-none}', want $version" >&2
	exit 1
fi
echo "$bin"
