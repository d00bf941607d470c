// Package scripts holds the shell helpers of codeman's tmux plugin
// (tmux-plugin.tmux at the repository root); its tests run the plugin on
// an isolated tmux server.
package scripts
