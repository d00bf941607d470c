#!/usr/bin/env bash
# build-multiplexers.sh builds the tmux and GNU screen releases of the test
# matrix from their source archives into a cache directory, once, and prints
# one line per release: "tmux 3.4 /cache/tmux-3.4/bin/tmux". A release whose
# binary is already in the cache and reports its version is not rebuilt.
# The system's tmux and screen are printed too, when installed, so that the
# output is the whole matrix (docs/multiplexers.md).
#
# Usage: scripts/build-multiplexers.sh [SOURCES_DIR]
# Env:   CODEMAN_MUX_CACHE  install root (default
#                           ${XDG_CACHE_HOME:-$HOME/.cache}/codeman-multiplexers)
#
# SOURCES_DIR holds tmux-<release>.tar.gz and screen-<release>.tar.gz, each a
# `git archive` of the release tag (no configure script yet).
set -euo pipefail

sources=${1:-${CODEMAN_MUX_SOURCES:-}}
if [ -z "$sources" ] || [ ! -d "$sources" ]; then
	echo "build-multiplexers.sh: no sources directory (give it as the argument or in CODEMAN_MUX_SOURCES)" >&2
	exit 2
fi
sources=$(cd "$sources" && pwd)
cache=${CODEMAN_MUX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/codeman-multiplexers}
mkdir -p "$cache"

# build_tmux RELEASE: configure and install tmux RELEASE under $cache.
build_tmux() {
	local release=$1 prefix=$cache/tmux-$1 work
	if [ -x "$prefix/bin/tmux" ] && [ "$("$prefix/bin/tmux" -V)" = "tmux $release" ]; then
		return 0
	fi
	work=$(mktemp -d)
	tar -xzf "$sources/tmux-$release.tar.gz" -C "$work"
	(
		cd "$work/tmux-$release"
		sh autogen.sh
		./configure --prefix="$prefix"
		make -j"$(nproc)"
		make install
	) >"$cache/tmux-$release.log" 2>&1 || {
		echo "build-multiplexers.sh: building tmux $release failed; the last lines of $cache/tmux-$release.log:" >&2
		tail -n 20 "$cache/tmux-$release.log" >&2
		return 1
	}
	rm -rf "$work"
}

# build_screen RELEASE: screen's own socket directory keeps its sessions
# apart from the system screen's, and the binary is not setuid (make
# install_bin makes it so; distributions do not ship it that way).
build_screen() {
	local release=$1 prefix=$cache/screen-$1 work
	if [ -x "$prefix/bin/screen" ] && "$prefix/bin/screen" -v | grep -q "version $release"; then
		return 0
	fi
	work=$(mktemp -d)
	tar -xzf "$sources/screen-$release.tar.gz" -C "$work"
	mkdir -p "$prefix/sockets"
	chmod 0777 "$prefix/sockets"
	(
		cd "$work/screen-$release/src"
		sh autogen.sh
		./configure --prefix="$prefix" --enable-socket-dir="$prefix/sockets"
		make -j"$(nproc)" screen
		make install_bin
	) >"$cache/screen-$release.log" 2>&1 || {
		echo "build-multiplexers.sh: building screen $release failed; the last lines of $cache/screen-$release.log:" >&2
		tail -n 20 "$cache/screen-$release.log" >&2
		return 1
	}
	for f in "$prefix"/bin/screen*; do
		[ -L "$f" ] || chmod 0755 "$f"
	done
	rm -rf "$work"
}

# system_release PROGRAM: PROGRAM's release, when the system has it.
system_release() {
	case $1 in
	tmux) tmux -V | awk '{print $2}' ;;
	screen) screen -v | awk '{print $3}' | sed 's/\.00$//' ;;
	esac
}

# build_all PROGRAM: the system's PROGRAM, then each release of it in the
# sources, built.
build_all() {
	local prog=$1 archive release
	if command -v "$prog" >/dev/null; then
		echo "$prog $(system_release "$prog") $(command -v "$prog") system"
	fi
	for archive in "$sources/$prog"-*.tar.gz; do
		[ -e "$archive" ] || continue
		release=$(basename "$archive" .tar.gz)
		release=${release#"$prog"-}
		"build_$prog" "$release"
		echo "$prog $release $cache/$prog-$release/bin/$prog"
	done
}

build_all tmux
build_all screen
