// Package claudehooks installs codeman's hooks into Claude Code's
// settings and removes them again, with package hooks' settings editor:
// the settings file (SettingsPath: the user's, $CLAUDE_CONFIG_DIR's or a
// project's settings.local.json) gets codeman's entries (Entries), and
// every other key and hook of the user's stays as it was.
package claudehooks
