#!/usr/bin/env bash
# Prints the path of the codeman binary: @codeman-bin, else codeman on PATH,
# else the plugin's own bin/codeman, else builds that and bin/codeman-hook
# with go. Exits 1 with a message on stderr when none can be had; what the
# build prints goes to stderr too, so the path is the last line.
set -u
plugin_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$plugin_dir/scripts/variables.sh"
source "$plugin_dir/scripts/helpers.sh"

configured="$(get_tmux_option "$codeman_bin_option" "$codeman_bin_default")"
if [ -n "$configured" ]; then
	if [ -x "$configured" ]; then
		printf '%s\n' "$configured"
		exit 0
	fi
	echo "codeman: @codeman-bin is $configured, which is not an executable" >&2
	exit 1
fi
if command -v codeman >/dev/null 2>&1; then
	command -v codeman
	exit 0
fi
own="$plugin_dir/bin/codeman"
# The plugin's own build holds codeman and codeman-hook, the hook handler
# that `codeman hooks install` finds beside it. A bin/ built before
# codeman-hook existed gets it the next time Go is there.
if [ -x "$own" ] && { [ -x "$plugin_dir/bin/codeman-hook" ] || ! command -v go >/dev/null 2>&1; }; then
	printf '%s\n' "$own"
	exit 0
fi
if ! command -v go >/dev/null 2>&1; then
	echo "codeman: no codeman binary on PATH or in $plugin_dir/bin, and Go is not installed to build one; install Go (https://go.dev/dl) or put codeman on PATH" >&2
	exit 1
fi
mkdir -p "$plugin_dir/bin"
# Stripped and trimmed binaries are smaller and start faster, which every
# hook run pays for; urfave_cli_no_docs drops man-page support, which costs
# 0.4 ms at every start of codeman (BENCHMARKS.md).
if ! (cd "$plugin_dir" && go build -trimpath -ldflags='-s -w' -tags urfave_cli_no_docs -o "$plugin_dir/bin/" ./cmd/codeman ./cmd/codeman-hook) >&2; then
	if [ -x "$own" ]; then
		echo "codeman: go build failed in $plugin_dir; using the codeman built before" >&2
		printf '%s\n' "$own"
		exit 0
	fi
	echo "codeman: go build failed in $plugin_dir" >&2
	exit 1
fi
printf '%s\n' "$own"
