#!/usr/bin/env bash
# install-opencode.sh installs the OpenCode CLI that the OpenCode work drives
# into a private cache directory, and prints the path of its native binary.
# It installs the pinned version only. Running it again is cheap: an install
# that already reports the pinned version is kept.
#
# opencode-ai holds only a postinstall script; the binary (a Bun executable
# with the whole TUI in it) comes from one of its platform packages, which npm
# picks as optional dependencies by os, cpu and libc: on glibc x86_64 both
# opencode-linux-x64 and opencode-linux-x64-baseline (no AVX2) arrive. This
# script prints the one the postinstall script would pick.
#
# At every start OpenCode makes each config directory it reads
# ($XDG_CONFIG_HOME/opencode, a project's .opencode) an npm project that
# depends on @opencode-ai/plugin, and installs that from the registry unless
# node_modules is there and package-lock.json lists it; plugins wait for
# that install, so offline it holds the start up for about two minutes. This
# script installs the pinned @opencode-ai/plugin into <prefix>/plugin-deps;
# runs copy its package.json and package-lock.json into the config
# directory and link its node_modules there (docs/opencode.md). The model
# providers (@ai-sdk/anthropic among them) are built into the binary.
#
# Usage: scripts/install-opencode.sh
# Env:   CODEMAN_E2E_OPENCODE_DIR  install prefix (default
#                                  ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-e2e-opencode)
set -euo pipefail

pinned=1.18.33 # see docs/opencode.md

if [ $# -gt 0 ]; then
	echo "install-opencode.sh: takes no arguments; it installs the pinned version $pinned" >&2
	exit 2
fi

case "$(uname -s)/$(uname -m)" in
Linux/x86_64) arch=x64 ;;
Linux/aarch64) arch=arm64 ;;
*)
	echo "install-opencode.sh: no OpenCode build for $(uname -s)/$(uname -m) is used here" >&2
	exit 1
	;;
esac
suffix=
if [ "$arch" = x64 ] && ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
	suffix=-baseline
fi
if [ -f /etc/alpine-release ] || ldd --version 2>&1 | grep -qi musl; then
	suffix=$suffix-musl
fi

cache=${XDG_CACHE_HOME:-$HOME/.cache}
prefix=${CODEMAN_E2E_OPENCODE_DIR:-$cache/codeman-e2e-opencode}
bin=$prefix/node_modules/opencode-linux-$arch$suffix/bin/opencode
deps=$prefix/plugin-deps

installed_version() {
	[ -x "$bin" ] || return 1
	# "1.18.33"; a private HOME keeps it from creating ~/.config/opencode and
	# the rest of its directories in the caller's.
	HOME=$prefix/home OPENCODE_DISABLE_AUTOUPDATE=1 "$bin" --version 2>/dev/null | head -n 1
}

plugin_version() {
	[ -f "$deps/package-lock.json" ] || return 1
	node -e 'const p = require(process.argv[1]); console.log(p.version)' \
		"$deps/node_modules/@opencode-ai/plugin/package.json" 2>/dev/null
}

if [ "$(installed_version || true)" = "$pinned" ] && [ "$(plugin_version || true)" = "$pinned" ]; then
	echo "$bin"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	echo "install-opencode.sh: npm not found; install Node.js and npm (Debian: apt-get install npm) and run this again" >&2
	exit 1
fi

mkdir -p "$prefix"
cd "$prefix"
# A package.json of our own keeps npm from walking up into an unrelated
# project; --no-save leaves it untouched on later runs.
[ -f package.json ] || echo '{"name":"codeman-e2e-opencode","private":true}' >package.json
npm install --no-save --no-audit --no-fund --loglevel=error "opencode-ai@$pinned" >&2
# The config directories' dependency, as OpenCode itself saves it: an exact
# version in package.json, the lock file beside it.
mkdir -p "$deps"
echo '{"name":"codeman-e2e-opencode-plugin-deps","private":true}' >"$deps/package.json"
(cd "$deps" && npm install --save-exact --no-audit --no-fund --loglevel=error "@opencode-ai/plugin@$pinned" >&2)

got=$(installed_version || true)
if [ "$got" != "$pinned" ]; then
	echo "install-opencode.sh: $bin reports version '${got:-none}', want $pinned" >&2
	exit 1
fi
got=$(plugin_version || true)
if [ "$got" != "$pinned" ]; then
	echo "install-opencode.sh: $deps has @opencode-ai/plugin '${got:-none}', want $pinned" >&2
	exit 1
fi
echo "$bin"
