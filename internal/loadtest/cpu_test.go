//go:build linux

package loadtest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/internal/wait"
	"github.com/codeman-dev/codeman/respawn"
)

// Targets of the CPU measurement.
const (
	maxDaemonShare = 2.0      // percent of one core
	maxDaemonRSS   = 50 << 20 // bytes
)

// cpuConfig is the default configuration with AI checks off: no claude
// CLI is measured here, and a pane that keeps working never asks one.
const cpuConfig = `
[respawn.ai_idle_check]
enabled = false

[respawn.ai_plan_check]
enabled = false
`

// workingPanes are the panes of the CPU measurement.
type workingPanes struct {
	ids  []string
	logs []string // input logs (printer) or session logs (sim)
	pids []int
}

// startWorkingPanes starts the load generators and waits until every
// pane shows Claude's busy footer.
func (r *rig) startWorkingPanes(prefix string, n, sessions int) workingPanes {
	r.t.Helper()
	var w workingPanes
	argv := func(i int) []string {
		log := filepath.Join(r.dir, fmt.Sprintf("%s%d.jsonl", prefix, i))
		w.logs = append(w.logs, log)
		if *genFlag == "sim" {
			return []string{r.codeman, "sim-claude", "--prompt", "long", "--long", "10m", "--seed", fmt.Sprint(i + 1), "--log", log}
		}
		return printerArgv(r.t, log)
	}
	w.ids = r.newPanes(prefix, n, (n+sessions-1)/sessions, argv)
	r.waitScreens(w.ids, "esc to interrupt", 30*time.Second)
	w.pids = r.panePIDs(w.ids)
	return w
}

// inputs counts the input events that reached the working panes.
func (w workingPanes) inputs(t *testing.T) int {
	t.Helper()
	n := 0
	for _, log := range w.logs {
		if *genFlag == "sim" {
			entries, err := simclaude.ReadLog(log)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				switch e.Kind {
				case simclaude.LogKey, simclaude.LogPaste, simclaude.LogSubmit, simclaude.LogQueued:
					t.Errorf("%s: input reached a working pane: %+v", log, e)
					n++
				}
			}
			continue
		}
		entries, err := ReadInputLog(log)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			t.Errorf("%s: input reached a working pane at %s: %q", log, e.T.Format(time.StampMicro), e.Data)
		}
		n += len(entries)
	}
	return n
}

func measureCPU(t *testing.T, codeman string) {
	r := newRig(t, codeman, cpuConfig)
	panes := r.startWorkingPanes("w", *panesFlag, *sessionsFlag)
	server := r.serverPID()
	generators := fmt.Sprintf("%d %s panes", len(panes.ids), *genFlag)
	if *baseFlag {
		time.Sleep(2 * time.Second) // let the panes' first frames settle
		base := measureWindow(*windowFlag, 0, []group{
			{"tmux server", []int{server}},
			{generators, panes.pids},
		})
		t.Logf("baseline, no daemon:\n%s", base)
	}

	r.startDaemon()
	for _, id := range panes.ids {
		r.attach(r.address(id))
	}
	wait.For(t, "every pane controlled in control mode", 30*time.Second, func() bool {
		st, err := r.client.Panes(context.Background())
		if err != nil || len(st) != len(panes.ids) {
			return false
		}
		for _, p := range st {
			if p.Mode != "control" {
				return false
			}
		}
		return true
	})
	time.Sleep(5 * time.Second) // attach-time snapshots and option writes are not the steady state
	pid := r.daemonPID()
	clients := Children(pid)
	win := measureWindow(*windowFlag, pid, []group{
		{"daemon", []int{pid}},
		{fmt.Sprintf("its %d tmux -C clients", len(clients)), clients},
		{"tmux server", []int{server}},
		{generators, panes.pids},
	})
	t.Logf("with the daemon watching %d panes:\n%s", len(panes.ids), win)

	sends := r.checkNoSends(t)
	inputs := panes.inputs(t)
	t.Logf("no-send check: %d send decisions, %d input events reached the panes", sends, inputs)
	daemonCPU := win.cpu[0].Self
	if share := Share(daemonCPU, win.wall); share >= maxDaemonShare {
		t.Errorf("daemon used %.2f%% of one core, target under %.0f%%", share, maxDaemonShare)
	}
	if win.mem.HWM >= maxDaemonRSS {
		t.Errorf("daemon VmHWM %s, target under %s", MiB(win.mem.HWM), MiB(maxDaemonRSS))
	}
}

// checkNoSends fails the test for every send decision and every pane not
// in watching, and returns the number of sends.
func (r *rig) checkNoSends(t *testing.T) int {
	t.Helper()
	st, err := r.client.Panes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sends := 0
	states := map[string]int{}
	for _, p := range st {
		full, err := r.client.Pane(context.Background(), p.Pane, respawn.DecisionLogSize)
		if err != nil {
			t.Fatal(err)
		}
		states[full.Status.State]++
		if full.Status.State != "watching" {
			t.Errorf("%s: state %s, want watching", p.Pane, full.Status.State)
		}
		for _, d := range full.Status.Decisions {
			if d.Kind == respawn.DecisionSend {
				t.Errorf("%s: the daemon typed into a working pane: %s", p.Pane, d)
				sends++
			}
		}
		if full.Status.Cycles != 0 {
			t.Errorf("%s: %d cycles on a working pane", p.Pane, full.Status.Cycles)
		}
	}
	var parts []string
	for s, n := range states {
		parts = append(parts, fmt.Sprintf("%s=%d", s, n))
	}
	t.Logf("pane states: %s", strings.Join(parts, " "))
	return sends
}
