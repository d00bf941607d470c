package respawn

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Ask is a dialog a person answers, as the agent read it off the screen:
// what it asks and the options it offers. Its fingerprint names this
// dialog and no other, so that an answer meant for it is never typed into
// the next one.
type Ask struct {
	Kind NeedKind `json:"kind"` // NeedQuestion, NeedPermission or NeedMenu
	// Text is what the dialog asks: the question, or the command a
	// permission is asked for.
	Text string `json:"text"`
	// Options are the labels of its options in screen order, without
	// their numbers.
	Options []string `json:"options"`
	// Selected is the index of the option under the selector.
	Selected int `json:"selected"`
	// Typed are the indexes of options that open a text box ("Type
	// something."): choosing one asks for free text.
	Typed []int `json:"typed,omitempty"`
}

// Open reports whether the screen showed a dialog with options.
func (a Ask) Open() bool { return len(a.Options) > 0 }

// Fingerprint is a digest of the dialog's kind, text and option labels:
// two screens showing the same dialog have the same fingerprint,
// wherever its selector is.
func (a Ask) Fingerprint() string {
	if !a.Open() {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s", a.Kind, a.Text)
	for _, o := range a.Options {
		fmt.Fprintf(h, "\x00%s", o)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ErrNoSuchOption is a choice that is none of the dialog's options.
var ErrNoSuchOption = errors.New("no such option")

// Choose finds the option a person's choice names: its number as drawn
// ("2"), its label (any case, or the start of one label alone), or, in a
// permission prompt, "allow" for its first option and "deny" for the one
// that says no.
func (a Ask) Choose(choice string) (int, error) {
	c := strings.TrimSpace(choice)
	if n, err := strconv.Atoi(c); err == nil {
		if n < 1 || n > len(a.Options) {
			return 0, fmt.Errorf("%w %d: the dialog has options 1 to %d", ErrNoSuchOption, n, len(a.Options))
		}
		return n - 1, nil
	}
	lower := strings.ToLower(c)
	if a.Kind == NeedPermission {
		switch lower {
		case "allow", "yes":
			return 0, nil
		case "deny", "no":
			for i, o := range a.Options {
				if strings.HasPrefix(strings.ToLower(o), "no") {
					return i, nil
				}
			}
		}
	}
	found := -1
	for i, o := range a.Options {
		label := strings.ToLower(o)
		if label == lower {
			return i, nil
		}
		if lower != "" && strings.HasPrefix(label, lower) {
			if found >= 0 {
				return 0, fmt.Errorf("%w %q: it starts more than one option (%s); give its number", ErrNoSuchOption, choice, a.list())
			}
			found = i
		}
	}
	if found < 0 {
		return 0, fmt.Errorf("%w %q: the options are %s", ErrNoSuchOption, choice, a.list())
	}
	return found, nil
}

// list names the options with their numbers: "1. Yes, 2. No".
func (a Ask) list() string {
	parts := make([]string, len(a.Options))
	for i, o := range a.Options {
		parts[i] = fmt.Sprintf("%d. %s", i+1, o)
	}
	return strings.Join(parts, ", ")
}

// TakesText reports whether option i opens a text box.
func (a Ask) TakesText(i int) bool {
	for _, t := range a.Typed {
		if t == i {
			return true
		}
	}
	return false
}

// ReadOptions reads a dialog's numbered options for an agent's reader:
// the last run of rows numbered from 1 ("  2. SQLite") of which exactly
// one carries the selector mark ("❯ 1. PostgreSQL"). Rows between the
// numbered ones (descriptions, rules) are skipped; a numbered list in the
// transcript has no selector, so it is no dialog. ok is false when no run
// with a selector is there.
func ReadOptions(rows []string, selector string) (options []string, selected int, ok bool) {
	var run, last optionRun
	for _, row := range rows {
		n, label, sel, isOption := numberedRow(row, selector)
		switch {
		case !isOption:
			continue
		case n == 1:
			last = run.keep(last)
			run = optionRun{labels: []string{label}}
		case n == len(run.labels)+1:
			run.labels = append(run.labels, label)
		default:
			last, run = run.keep(last), optionRun{}
			continue
		}
		if sel {
			run.selected = append(run.selected, len(run.labels)-1)
		}
	}
	last = run.keep(last)
	if len(last.labels) < 2 {
		return nil, 0, false
	}
	return last.labels, last.selected[0], true
}

// optionRun is a run of numbered rows and which of them carry the
// selector.
type optionRun struct {
	labels   []string
	selected []int
}

// keep returns r when it is a dialog's options (one selected), else last.
func (r optionRun) keep(last optionRun) optionRun {
	if len(r.selected) == 1 {
		return r
	}
	return last
}

// numberedRow reads "❯ 2. label" or "  2. label": the number, the label,
// whether the selector marks it.
func numberedRow(row, selector string) (n int, label string, selected, ok bool) {
	t := strings.TrimSpace(row)
	if rest, found := strings.CutPrefix(t, selector); found {
		selected, t = true, strings.TrimSpace(rest)
	}
	digits := 0
	for digits < len(t) && t[digits] >= '0' && t[digits] <= '9' {
		digits++
	}
	if digits == 0 || digits > 2 || !strings.HasPrefix(t[digits:], ". ") {
		return 0, "", false, false
	}
	n, _ = strconv.Atoi(t[:digits])
	label = strings.TrimSpace(t[digits+2:])
	return n, label, selected, label != ""
}
