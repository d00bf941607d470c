#!/usr/bin/env bash
# fuzz.sh runs every native Go fuzz target in the repository for SECONDS
# each (default 5). The targets are what `go test -list '^Fuzz'` lists in
# each package whose tests declare a Fuzz function, so a new target is
# picked up by itself. An input that fails is written under its package's
# testdata/fuzz/ (rerun it with the `go test -run` line printed); the
# script goes on with the other targets and exits 1 at the end.
#
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-5}
case "$seconds" in
'' | *[!0-9]* | 0)
	echo "usage: scripts/fuzz.sh [SECONDS], a whole number of seconds per target" >&2
	exit 2
	;;
esac

# Listing runs each package's test binary, so only the packages that may
# hold a target are listed.
mapfile -t dirs < <(grep -rlE --include='*_test.go' --exclude-dir=testdata --exclude-dir=.git \
	'^func Fuzz[A-Z0-9_]' . | xargs -r -n 1 dirname | sort -u)
targets=()
for dir in "${dirs[@]}"; do
	list="$(go test -list '^Fuzz' "$dir")" # a package that does not build stops the script
	for name in $(grep -E '^Fuzz' <<<"$list" || true); do
		targets+=("$dir $name")
	done
done
if [ ${#targets[@]} -eq 0 ]; then
	echo "fuzz.sh: found no fuzz target" >&2
	exit 1
fi

echo "fuzz.sh: ${#targets[@]} targets, ${seconds}s each"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
failed=()
for target in "${targets[@]}"; do
	read -r dir name <<<"$target"
	echo "-- $name ($dir)"
	# The progress lines are dropped; the result and any failure stay.
	status=0
	go test -run '^$' -fuzz "^${name}\$" -fuzztime "${seconds}s" "$dir" >"$out" 2>&1 || status=$?
	grep -v '^fuzz: elapsed: ' "$out" || true
	[ "$status" -eq 0 ] && continue
	# Go 1.26's fuzzing coordinator can report the end of -fuzztime itself
	# as "context deadline exceeded" (go.dev/issue/75804, fixed in Go 1.27).
	# A real finding always writes its input; without one, it is that race.
	if grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written' "$out"; then
		echo "fuzz.sh: $name ended on the fuzztime race of go.dev/issue/75804, with no failing input; not a finding"
		continue
	fi
	failed+=("$name ($dir)")
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz.sh: failed: ${failed[*]}" >&2
	exit 1
fi
