# Helpers shared by the plugin's scripts (after tmux-resurrect's helpers.sh).

# get_tmux_option NAME DEFAULT: the global option's value, or DEFAULT when it is unset or empty.
get_tmux_option() {
	local value
	value="$(show_global_option "$1")"
	if [ -z "$value" ]; then
		printf '%s' "$2"
	else
		printf '%s' "$value"
	fi
}

# display TEXT: shows TEXT on the status line as it is, through
# format_literal. Newlines become spaces; the text is cut to 1000
# characters, as tmux shows nothing of a message whose time expansion
# passes 8 KiB.
display() {
	local text="${1:0:1000}"
	tmux display-message -- "$(format_literal "${text//$'\n'/ }")"
}

# format_literal TEXT: prints TEXT so that display-message shows it as is
# (tmux 3.4's -l would skip only the first of the passes below). tmux
# reads a message as a format: it expands strftime's % sequences, then
# #{...} and the like, where '##' gives '#' but a run of '#' before '['
# is kept; then it draws #[...] styles, where '##' gives '#' again. So '%'
# is doubled, a '#' run before '[' is doubled and any other '#' is
# quadrupled. A final ';' would end the command, so it is escaped.
format_literal() {
	local rest="$1" out="" seg run
	rest="${rest//'%'/'%%'}"
	while [[ "$rest" == *'['* ]]; do
		seg="${rest%%'['*}"
		rest="${rest#*'['}"
		run="${seg##*[!#]}" # the '#'s right before the '['
		seg="${seg%"$run"}"
		out+="${seg//'#'/'####'}${run//'#'/'##'}["
	done
	out+="${rest//'#'/'####'}"
	case "$out" in
	*';') out="${out%';'}\\;" ;;
	esac
	printf '%s' "$out"
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

# codeman_bin: prints the codeman binary to run, building it first when
# needed (codeman-bin.sh); shows why not on the status line and fails when
# there is none. A first build prints progress (go: downloading ...)
# before the path: the path is the last line.
codeman_bin() {
	local out
	if ! out="$("$plugin_dir/scripts/codeman-bin.sh" 2>&1)"; then
		display "$out"
		return 1
	fi
	printf '%s\n' "${out##*$'\n'}"
}

# show_global_option NAME: the global option's value as it was set. tmux
# 3.4 and 3.5 escape what their commands print (vis(3): \ooo for control
# bytes, \r and the like, and \$ before a name); this undoes it there,
# so that a value written back is the user's own.
show_global_option() {
	local value
	value="$(tmux show-option -gqv "$1")"
	case "$value" in
	*'\'*)
		case "$(tmux display-message -p '#{version}')" in
		3.4* | 3.5*) value="$(unescape_output "$value")" ;;
		esac
		;;
	esac
	printf '%s' "$value"
}

# unescape_output TEXT: TEXT as it was before tmux 3.4's escaping (see
# tmux/escape.go for the rules, which this follows).
unescape_output() {
	local s="$1" out="" c next i=0 n=${#1}
	while [ "$i" -lt "$n" ]; do
		c="${s:i:1}"
		next="${s:i+1:1}"
		i=$((i + 1))
		if [ "$c" != '\' ] || [ -z "$next" ]; then
			out+="$c"
			continue
		fi
		case "$next" in
		r) out+=$'\r' i=$((i + 1)) ;;
		b) out+=$'\b' i=$((i + 1)) ;;
		a) out+=$'\a' i=$((i + 1)) ;;
		v) out+=$'\v' i=$((i + 1)) ;;
		f) out+=$'\f' i=$((i + 1)) ;;
		'$')
			case "${s:i+1:1}" in
			[A-Za-z_{]) out+='$' i=$((i + 1)) ;;
			*) out+="$c" ;;
			esac
			;;
		[0-3])
			if [[ "${s:i:3}" == [0-3][0-7][0-7] ]] && [ "${s:i:3}" != 000 ]; then
				out+="$(printf "\\${s:i:3}")"
				i=$((i + 3))
			else
				out+="$c"
			fi
			;;
		*) out+="$c" ;;
		esac
	done
	printf '%s' "$out"
}
