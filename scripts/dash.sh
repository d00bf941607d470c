#!/usr/bin/env bash
# Run by the dash key binding: opens codeman dash in a popup on the client
# that pressed the key, or in a new window where no popup can open.
# Arguments: the client's name and its session (#{client_name} #{session_id}).
set -u
plugin_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$plugin_dir/scripts/variables.sh"
source "$plugin_dir/scripts/helpers.sh"

client="$1"
session="$2"
bin="$(codeman_bin)" || exit 0

# quote WORD: WORD in single quotes for the shell tmux runs the command in.
quote() {
	printf "'%s'" "${1//\'/\'\\\'\'}"
}

# -E closes the popup when the dash quits; --popup quits it after a jump.
if ! tmux display-popup -c "$client" -E -w 90% -h 80% "$(quote "$bin") dash --popup --client $(quote "$client")" 2>/dev/null; then
	tmux new-window -t "$session:" "$(quote "$bin") dash --client $(quote "$client")"
fi
