#!/usr/bin/env bash
# install-claude.sh installs the pinned Claude Code CLI that the end-to-end
# tests drive (internal/claudetest) into a private cache directory, and prints
# the path of its binary. Running it again is cheap: an install that already
# reports the pinned version is kept.
#
# Usage: scripts/install-claude.sh
# Env:   CODEMAN_E2E_DIR  install prefix (default ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e)
set -euo pipefail

version=2.1.328
prefix=${CODEMAN_E2E_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e}
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
