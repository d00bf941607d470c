# Option names and their defaults, in pairs. An empty option means the default.

# The key (after the prefix) that toggles respawn on the current pane.
codeman_key_option="@codeman-key"
codeman_key_default="A"

# The key (after the prefix) that opens codeman dash in a popup. W is
# unbound in tmux's defaults; C-a is not taken, as it is the prefix or its
# send-prefix in many configs that this plugin, loaded last, would override.
codeman_dash_key_option="@codeman-dash-key"
codeman_dash_key_default="W"

# The profile a pane gets when enabled with the key ("" = [respawn]).
codeman_profile_option="@codeman-profile"
codeman_profile_default=""

# What #{codeman_status} becomes in status-left/status-right. It reads the
# active pane's @codeman-state, which the daemon keeps current, so the
# status line spawns no process.
codeman_status_format_option="@codeman-status-format"
codeman_status_format_default="#{?#{@codeman-state},[codeman #{@codeman-state}] ,}"


# The codeman binary to use; empty means: PATH, then the plugin's bin/, then build it.
codeman_bin_option="@codeman-bin"
codeman_bin_default=""
