// Package deps pins the modules the packages under construction use, so
// that go mod tidy keeps them while they are being written.
package deps

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/GianlucaP106/gotmux/gotmux"
	_ "github.com/adrg/xdg"
	_ "github.com/charmbracelet/x/vt"
	_ "github.com/fsnotify/fsnotify"
	_ "github.com/google/renameio/v2"
	_ "github.com/jonboulle/clockwork"
	_ "go.uber.org/goleak"
	_ "golang.org/x/sys/unix"
	_ "pgregory.net/rapid"
)
