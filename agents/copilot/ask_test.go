package copilot_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/copilot"
	"github.com/codeman-dev/codeman/respawn"
)

// The dialogs a person may answer from afar read with their options, the
// one under the selector, and the options that open a text field.
func TestClassify_AskOptions(t *testing.T) {
	for name, want := range map[string]respawn.Ask{
		"permission-shell": {Kind: respawn.NeedPermission, Text: "echo hi from tool > out.txt; cat out.txt",
			Options: []string{"Yes", "No, and tell Copilot what to do differently (Esc to stop)"}, Typed: []int{1}},
		"permission-shell-remember": {Kind: respawn.NeedPermission, Text: "sleep 10; echo slow done",
			Options: []string{"Yes", "Yes, and don't ask again for `sleep` in this directory (/tmp/cpr/main1/proj)",
				"No, and tell Copilot what to do differently (Esc to stop)"}, Typed: []int{2}},
		"question": {Kind: respawn.NeedQuestion, Text: "Which database should the service use?",
			Options: []string{"PostgreSQL", "SQLite", "Other (type your answer)"}, Typed: []int{2}},
	} {
		t.Run(name, func(t *testing.T) {
			got := copilot.New().Classify(screen(t, name)).Ask
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Ask =\n%#v\nwant\n%#v", got, want)
			}
		})
	}
}

// The plan approval is codeman's to accept only while the selector is on
// the option that keeps every permission asked; on any other it is a
// person's menu.
func TestClassify_PlanApprovalOnlyInteractive(t *testing.T) {
	s := screen(t, "plan-approval")
	if f := copilot.New().Classify(s); !f.PlanMenu || f.Blocker() != "" {
		t.Fatalf("plan approval: PlanMenu %v, blocker %q", f.PlanMenu, f.Blocker())
	}
	for i, row := range s.Lines {
		if strings.Contains(row, "❯ 1. Accept plan") {
			s.Lines[i] = strings.Replace(row, "❯ 1.", "  1.", 1)
		}
		if strings.Contains(row, "  2. Accept plan and continue in Autopilot") {
			s.Lines[i] = strings.Replace(row, "  2.", "❯ 2.", 1)
		}
	}
	f := copilot.New().Classify(s)
	if f.PlanMenu || f.Blocker() == "" || f.Ask.Selected != 1 {
		t.Errorf("selector on Autopilot: PlanMenu %v, blocker %q, Ask %+v; want a person's menu", f.PlanMenu, f.Blocker(), f.Ask)
	}
}
