#!/usr/bin/env bash
# codeman's tmux plugin: a key that toggles respawn on the current pane, a
# key that opens codeman dash in a popup, and a #{codeman_status}
# placeholder for the status line. Works through TPM
# (set -g @plugin ...) and with run-shell /path/to/tmux-plugin.tmux.
CURRENT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$CURRENT_DIR/scripts/variables.sh"
source "$CURRENT_DIR/scripts/helpers.sh"

bind_toggle_key() {
	local key
	key="$(get_tmux_option "$codeman_key_option" "$codeman_key_default")"
	tmux bind-key "$key" run-shell -b "'$CURRENT_DIR/scripts/toggle.sh' '#{socket_path}' '#{pane_id}'"
}

# The dash opens for the client that pressed the key, so that Enter in it
# switches that client.
bind_dash_key() {
	local key
	key="$(get_tmux_option "$codeman_dash_key_option" "$codeman_dash_key_default")"
	tmux bind-key "$key" run-shell -b "'$CURRENT_DIR/scripts/dash.sh' '#{client_name}' '#{session_id}'"
}

# Replaces the placeholder once; a reload finds nothing left to replace, so
# it is idempotent (after tmux-continuum).
replace_status_placeholder() {
	local format option value
	format="$(get_tmux_option "$codeman_status_format_option" "$codeman_status_format_default")"
	for option in status-left status-right; do
		value="$(show_global_option "$option")"
		case "$value" in
		*"#{codeman_status}"*)
			tmux set-option -gq "$option" "${value//"#{codeman_status}"/$format}"
			;;
		esac
	done
}

main() {
	shopt -u patsub_replacement 2>/dev/null # "&" in a format stays literal (bash 5.2)
	if ! tmux_version_ok; then
		display "codeman: $(tmux -V) is too old; codeman needs tmux 3.2 or newer"
		return
	fi
	bind_toggle_key
	bind_dash_key
	replace_status_placeholder
}
main
