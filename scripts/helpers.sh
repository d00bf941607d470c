# Helpers shared by the plugin's scripts (after tmux-resurrect's helpers.sh).

# get_tmux_option NAME DEFAULT: the global option's value, or DEFAULT when it is unset or empty.
get_tmux_option() {
	local value
	value="$(tmux show-option -gqv "$1")"
	if [ -z "$value" ]; then
		printf '%s' "$2"
	else
		printf '%s' "$value"
	fi
}

display() {
	tmux display-message "$1"
}

# tmux_version_ok: tmux 3.2 or newer (control-mode flow control).
tmux_version_ok() {
	local v major minor
	v="$(tmux -V | sed -e 's/^tmux //' -e 's/^next-//')"
	case "$v" in
	master | openbsd-*) return 0 ;;
	esac
	major="${v%%.*}"
	minor="${v#*.}"
	minor="${minor%%[!0-9]*}"
	[ "${major:-0}" -gt 3 ] || { [ "${major:-0}" -eq 3 ] && [ "${minor:-0}" -ge 2 ]; }
}
