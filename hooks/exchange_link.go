package hooks

import "os"

// linkNoReplace renames a to b unless b exists (fs.ErrExist), where the
// file system has no rename that refuses to replace: a hard link fails on
// an existing name.
func linkNoReplace(a, b string) error {
	if err := os.Link(a, b); err != nil {
		return err
	}
	return os.Remove(a)
}
