// Package opencode reads OpenCode (1.18.33, docs/opencode.md) for a
// respawn controller: New returns the respawn.Agent that classifies
// OpenCode's full-screen TUI, reads its output stream and names its
// commands. It only reads and names; the controller core decides. The
// plugin codeman installs (package opencodehooks) reports what happens
// more exactly; the screen is the second layer, and the only one in a
// pane without the plugin.
//
// OpenCode's screen is read from the bottom: its last row is the state
// (an 8-cell working bar and "esc interrupt" while a turn runs), above it
// the composer's lower edge ("╹▀▀▀"), the agent row ("┃  Build · <model>
// <provider>") and the composer's rows, each starting with "┃". Above
// that the transcript: each prompt echoed in a "┃" block, the reply,
// tool blocks, and a turn footer ("▣  Build · <model> · 7.7s") that gains
// its duration when the turn ends. A permission prompt replaces the
// composer and the state row.
package opencode
