package main

import (
	"slices"
	"testing"

	"github.com/urfave/cli/v2"
)

// A --set value is taken whole: a prompt with commas in it is one value,
// and a comma never smuggles in a second key.
func TestSetFlag_KeepsCommas(t *testing.T) {
	for _, name := range []string{"attach", "toggle", "replay"} {
		app := newApp()
		var got []string
		for _, cmd := range app.Commands {
			if cmd.Name == name {
				cmd.Action = func(c *cli.Context) error { got = c.StringSlice(setFlag.Name); return nil }
			}
		}
		args := []string{"codeman", name,
			"--set", "update_prompt=write a summary, then continue.",
			"--set", "update_prompt=write a summary to NOTES.md, send_clear=false",
			"--set", "completion_confirm=5s"}
		if err := app.Run(args); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := []string{"update_prompt=write a summary, then continue.", "update_prompt=write a summary to NOTES.md, send_clear=false", "completion_confirm=5s"}
		if !slices.Equal(got, want) {
			t.Errorf("%s --set = %q, want %q", name, got, want)
		}
	}
}
