#!/usr/bin/env bash
# test-matrix.sh runs every test that starts tmux or GNU screen once more
# on each release of the matrix that is not the system's (the system's ran
# with the README's `go test ./...`): the tmux releases run the packages
# whose tests start tmux, the end-to-end tests with the real agent CLIs on
# the oldest and the newest only; the screen releases run the packages
# whose tests start screen and the end-to-end, Copilot and OpenCode rig
# tests in screen windows.
# Each run puts the release first on PATH, so every tmux and screen that
# codeman and its tests start is that release.
#
# Usage: scripts/test-matrix.sh MATRIX
#   MATRIX is what scripts/build-multiplexers.sh printed: one line per
#   release, "tmux 3.4 /cache/tmux-3.4/bin/tmux", "system" after the
#   system's own.
# Env:   CODEMAN_MATRIX_ONLY  run only the releases it names ("tmux 3.4,screen 5.0.0")
set -euo pipefail
cd "$(dirname "$0")/.."

matrix=${1:?usage: scripts/test-matrix.sh MATRIX}
only=${CODEMAN_MATRIX_ONLY:-}

# Packages whose tests start tmux: they use one of the tmux test rigs.
tmux_packages() {
	go list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... |
		awk '/internal\/rig\/(tmuxtest|clitest|claudetest|codextest|copilottest|opencodetest)( |$)/ {print $1}' |
		grep -v -e '/internal/rig/e2e$' -e '/internal/rig/claudetest$' -e '/internal/rig/codextest$' -e '/internal/rig/copilottest$' -e '/internal/rig/opencodetest$'
}

# Packages whose tests start GNU screen: they give it a private SCREENDIR.
screen_packages() {
	grep -l -r --include='*_test.go' 'SCREENDIR' . | xargs -n1 dirname | sort -u |
		grep -v '^./internal/rig/e2e$'
}

# The packages that drive the real agent CLIs.
cli_packages=(./internal/rig/e2e ./internal/rig/claudetest ./internal/rig/codextest ./internal/rig/copilottest ./internal/rig/opencodetest)

# run NAME VERSION BIN ARGS...: go test ARGS with BIN's directory first on PATH.
run() {
	local name=$1 version=$2 bin=$3
	shift 3
	echo "== tests on $name $version ($bin): go test $*"
	local start=$SECONDS
	if ! PATH="$(dirname "$bin"):$PATH" go test -count=1 "$@"; then
		echo "FAIL: the tests above failed on $name $version ($bin)" >&2
		return 1
	fi
	echo "== $name $version: $((SECONDS - start)) s"
}

wanted() {
	[ -z "$only" ] || [[ ",$only," == *",$1 $2,"* ]]
}

mapfile -t tmux_lines < <(awk '$1 == "tmux" && $4 != "system"' "$matrix")
mapfile -t screen_lines < <(awk '$1 == "screen" && $4 != "system"' "$matrix")
mapfile -t tpkgs < <(tmux_packages)
mapfile -t spkgs < <(screen_packages)
oldest=$(awk '$1 == "tmux" {print $2}' "$matrix" | sort -V | head -n 1)
newest=$(awk '$1 == "tmux" {print $2}' "$matrix" | sort -V | tail -n 1)

failed=()
for line in "${tmux_lines[@]}"; do
	read -r name version bin _ <<<"$line"
	wanted "$name" "$version" || continue
	run "$name" "$version" "$bin" "${tpkgs[@]}" || failed+=("$name $version")
	if [ "$version" = "$oldest" ] || [ "$version" = "$newest" ]; then
		run "$name" "$version" "$bin" "${cli_packages[@]}" || failed+=("$name $version (agent CLIs)")
	fi
done
for line in "${screen_lines[@]}"; do
	read -r name version bin _ <<<"$line"
	wanted "$name" "$version" || continue
	run "$name" "$version" "$bin" "${spkgs[@]}" || failed+=("$name $version")
	run "$name" "$version" "$bin" -run 'Screen' ./internal/rig/e2e ./internal/rig/copilottest ./internal/rig/opencodetest || failed+=("$name $version (agent CLIs)")
done

if [ ${#failed[@]} -gt 0 ]; then
	printf 'FAIL on: %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "== the matrix passed: ${#tmux_lines[@]} tmux and ${#screen_lines[@]} screen releases beside the system's"
