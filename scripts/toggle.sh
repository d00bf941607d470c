#!/usr/bin/env bash
# Run by the key binding: toggles respawn on one pane and shows the result.
# Arguments: the tmux socket path and the pane id (#{socket_path} #{pane_id}).
set -u
plugin_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$plugin_dir/scripts/variables.sh"
source "$plugin_dir/scripts/helpers.sh"

socket="$1"
pane="$2"
bin="$(codeman_bin)" || exit 0
profile="$(get_tmux_option "$codeman_profile_option" "$codeman_profile_default")"
args=(toggle)
[ -n "$profile" ] && args+=(--profile "$profile")
msg="$("$bin" "${args[@]}" "tmux:$socket:$pane" 2>&1 | tail -n 3 | tr '\n' ' ')"
display "${msg:-codeman: no answer}"
