package opencodehooks

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"path/filepath"
	"slices"

	"github.com/codeman-dev/codeman/hooks"
)

// pluginTemplate is codeman's plugin with its command left out: the
// placeholder, quotes included, becomes the JSON array of the handler's
// command line before the event.
//
//go:embed plugin.js
var pluginTemplate []byte

const placeholder = `"__CODEMAN_COMMAND__"`

// header is the plugin's first line: a file that starts with it and is
// not the plugin as codeman writes it is codeman's, edited.
var header = pluginTemplate[:bytes.IndexByte(pluginTemplate, '\n')+1]

// commandOf is the command line the plugin runs before the event name:
// codeman-hook, else `codeman hook`.
func commandOf(binary, handler string) []string {
	if handler != "" {
		return []string{handler}
	}
	return []string{binary, "hook"}
}

// render is the plugin running command.
func render(command []string) []byte {
	quoted, _ := json.Marshal(command) // strings always marshal
	return bytes.Replace(pluginTemplate, []byte(placeholder), quoted, 1)
}

// owner is whose a plugin file is.
type owner int

const (
	ownerNone    owner = iota // another program's or a person's file
	ownerCodeman              // the plugin as codeman writes it
	ownerEdited               // codeman's plugin, changed since
)

// readPlugin tells whose data is and, when codeman's, the command it
// runs: the plugin exactly as render writes it for a command of
// codeman's handler at an absolute path.
func readPlugin(data []byte) (owner, []string) {
	if !bytes.HasPrefix(data, header) {
		return ownerNone, nil
	}
	before, _, ok := bytes.Cut(pluginTemplate, []byte(placeholder))
	if !ok || !bytes.HasPrefix(data, before) {
		return ownerEdited, nil
	}
	rest := data[len(before):]
	end := bytes.IndexByte(rest, '\n')
	if end < 0 {
		return ownerEdited, nil
	}
	var command []string
	line := bytes.TrimSuffix(rest[:end], []byte(";"))
	if json.Unmarshal(line, &command) != nil || !ownCommand(command) || !bytes.Equal(render(command), data) {
		return ownerEdited, nil
	}
	return ownerCodeman, command
}

// ownCommand reports whether command runs codeman's handler at an
// absolute path: codeman-hook, or codeman with hook.
func ownCommand(command []string) bool {
	switch {
	case len(command) == 0 || !filepath.IsAbs(command[0]):
		return false
	case len(command) == 1:
		return filepath.Base(command[0]) == hooks.HandlerName
	}
	return slices.Equal(command[1:], []string{"hook"}) && filepath.Base(command[0]) == "codeman"
}

// shellCommand is command as the other agents' hooks write it, for
// reports and hooks.InspectCommand.
func shellCommand(command []string) string {
	if len(command) == 2 {
		return hooks.InstallOptions{Binary: command[0]}.Command()
	}
	return hooks.InstallOptions{Handler: command[0]}.Command()
}
