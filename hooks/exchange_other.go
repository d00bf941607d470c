//go:build unix && !linux && !darwin

package hooks

// exchange: no atomic exchange here.
func exchange(a, b string) error { return errNoExchange }

// renameNoReplace renames a to b unless b exists (fs.ErrExist).
func renameNoReplace(a, b string) error { return linkNoReplace(a, b) }
