package spool

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// The spool dir is on tmpfs and nothing consumes it while no daemon runs,
// so the handler bounds it. Markers coalesce by name (one per pane and
// kind, see markerName); what is left to bound is the number of panes,
// which the handler prunes now and then: markers older than MaxAge go, and
// past MaxMarkers the oldest go. A stamp file's modification time says
// when the last prune ran, so the handler's common path costs one stat
// rather than a listing of the dir.
const (
	// MaxAge is the age beyond which a marker is stale: 10m. A marker that
	// old (left from before a daemon restart) no longer says anything about
	// the pane's present; the watcher drops it, and so does a prune.
	MaxAge = 10 * time.Minute
	// MaxMarkers is the most markers a prune leaves: 256.
	MaxMarkers = 256
	// pruneEvery is how often the handler prunes: at most once a minute.
	pruneEvery = time.Minute
	// pruneStamp is the stamp file.
	pruneStamp = ".pruned"
	// tempExt ends the name of every hidden file that is work in progress
	// (the handler's temp markers, a prune's claimed ones); a prune
	// removes those left behind for longer than the stale age.
	tempExt = ".tmp"
	// claimPrefix starts the name of a marker the watcher has claimed.
	claimPrefix = ".claim-"
)

// maybePrune prunes dir when the stamp says the last prune is pruneEvery
// or more away from now (either way: a clock set back counts too).
func maybePrune(dir string, now time.Time) {
	stamp := filepath.Join(dir, pruneStamp)
	info, err := os.Lstat(stamp)
	switch {
	case err == nil && !info.Mode().IsRegular():
		return // not ours to touch
	case err == nil && now.Sub(info.ModTime()).Abs() < pruneEvery:
		return
	case errors.Is(err, fs.ErrNotExist):
		f, err := os.OpenFile(stamp, os.O_WRONLY|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
		if err != nil {
			return
		}
		f.Close()
	case err != nil:
		return
	}
	if os.Chtimes(stamp, now, now) != nil {
		return
	}
	pruneSpool(dir, now, MaxAge, MaxMarkers)
}

// pruneSpool removes from dir the markers older than maxAge, unreadable
// ones, temp files left for longer than maxAge, and then the oldest
// markers beyond limit.
func pruneSpool(dir string, now time.Time, maxAge time.Duration, limit int) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type live struct {
		name string
		at   time.Time
	}
	var kept []live
	stale := func(at time.Time) bool { return now.Sub(at) > maxAge }
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") && strings.HasSuffix(name, tempExt) {
			if info, err := e.Info(); err == nil && stale(info.ModTime()) {
				_ = os.Remove(filepath.Join(dir, name))
			}
			continue
		}
		if !IsMarker(name) {
			continue
		}
		m, err := Read(filepath.Join(dir, name), MaxMarkerSize)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil || stale(m.At):
			removeMarkerIf(dir, name, func(m Marker, err error) bool { return err != nil || stale(m.At) })
		default:
			kept = append(kept, live{name, m.At})
		}
	}
	if len(kept) <= limit {
		return
	}
	slices.SortFunc(kept, func(a, b live) int { return b.at.Compare(a.at) })
	for _, l := range kept[limit:] {
		removeMarkerIf(dir, l.name, func(m Marker, err error) bool { return err != nil || !m.At.After(l.at) })
	}
}

// removeMarkerIf removes the marker name when drop, given it as read after
// a claim, says so. The claim (a rename to a hidden name of the prune's
// own) makes sure that a newer marker a handler renames into place
// meanwhile is neither removed nor judged in place of the old one; a claimed
// marker that must stay goes back unless a newer one took its name.
func removeMarkerIf(dir, name string, drop func(Marker, error) bool) {
	path := filepath.Join(dir, name)
	claimed := filepath.Join(dir, fmt.Sprintf(".prune-%s-%016x%s", name, rand.Uint64(), tempExt))
	if os.Rename(path, claimed) != nil {
		return
	}
	if drop(Read(claimed, MaxMarkerSize)) {
		_ = os.Remove(claimed)
		return
	}
	// Back under its name unless a newer marker took it meanwhile: a hard
	// link fails on an existing name, where a rename would replace it.
	// Either way the claimed name goes.
	_ = os.Link(claimed, path)
	_ = os.Remove(claimed)
}

// claimSeq numbers the watcher's claims within this process.
var claimSeq atomic.Uint64

// Claim renames the marker name in dir to a hidden name of the caller's
// own and returns that path, or "" when the marker is gone. Reading and
// removing the claimed file cannot touch a newer marker a handler renames
// into place under the old name meanwhile. The watcher claims every marker
// it reads.
func Claim(dir, name string) string {
	claimed := filepath.Join(dir, fmt.Sprintf("%s%d-%d-%s", claimPrefix, os.Getpid(), claimSeq.Add(1), name))
	if os.Rename(filepath.Join(dir, name), claimed) != nil {
		return ""
	}
	return claimed
}

// IsClaimed reports whether the name of a spool dir entry is a marker
// claimed by Claim, which a watcher that stopped may have left behind.
func IsClaimed(name string) bool { return strings.HasPrefix(name, claimPrefix) }
