//go:build linux

package loadtest

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
)

// Budgets of the CPU measurement, per working pane: the daemon's cost grows
// with the panes it watches (each pane's output is parsed and fed to its
// controller), so it is asserted at every size as a fixed part plus a part
// per pane, not as one number at any size. With 100 panes the CPU budget is
// 2% of one core. The fixed part is mostly the wake-up of each 25 ms slot
// of the control stream; the part per pane is the pane's output parsed and
// fed to its controller's core, about 80 µs of CPU a second per printer
// pane (BENCHMARKS.md).
const (
	cpuBudgetFixed   = 1.0  // percent of one core
	cpuBudgetPerPane = 0.01 // percent of one core per working pane
	memBudgetFixed   = 20 << 20
	memBudgetPerPane = 256 << 10 // bytes of VmHWM per working pane
)

// cpuBudget is the daemon's CPU budget with n working panes, in percent of one core.
func cpuBudget(n int) float64 { return cpuBudgetFixed + float64(n)*cpuBudgetPerPane }

// memBudget is the daemon's VmHWM budget with n working panes.
func memBudget(n int) int64 { return memBudgetFixed + int64(n)*memBudgetPerPane }

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

// startWorkingPanes starts n load generators over the given number of
// sessions and waits until every pane shows Claude's busy footer.
func (r *rig) startWorkingPanes(prefix string, n, sessions int) workingPanes {
	r.t.Helper()
	var w workingPanes
	r.addWorkingPanes(&w, prefix, n, sessions)
	return w
}

// addWorkingPanes starts load generators until w has n panes, pane i in
// session prefix(i mod sessions), one pane per window, and waits until the
// new panes show Claude's busy footer.
func (r *rig) addWorkingPanes(w *workingPanes, prefix string, n, sessions int) {
	r.t.Helper()
	from := len(w.ids)
	for i := from; i < n; i++ {
		log := filepath.Join(r.dir, fmt.Sprintf("%s%d.jsonl", prefix, i))
		w.logs = append(w.logs, log)
		argv := printerArgv(r.t, log)
		if *genFlag == "sim" {
			argv = []string{r.codeman, "sim-claude", "--prompt", "long", "--long", "10m", "--seed", fmt.Sprint(i + 1), "--log", log}
		}
		session := fmt.Sprintf("%s%d", prefix, i%sessions)
		if i < sessions {
			w.ids = append(w.ids, r.tmux.NewSession(session, argv...))
			continue
		}
		out := r.tmux.Tmux(append([]string{"new-window", "-d", "-t", session, "-P", "-F", "#{pane_id}", "--"}, argv...)...)
		w.ids = append(w.ids, strings.TrimSpace(out))
	}
	r.waitScreens(w.ids[from:], "esc to interrupt", 30*time.Second)
	w.pids = append(w.pids, r.panePIDs(w.ids[from:])...)
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

// cpuSize is what the CPU measurement saw with one number of panes.
type cpuSize struct {
	panes int
	share float64 // the daemon's, percent of one core
	hwm   int64
}

// measureCPU measures the daemon with each number of working panes that
// -load.panes lists, adding panes to the same daemon between windows, then
// fits a fixed part and a part per pane to the shares.
func measureCPU(t *testing.T, codeman string) {
	sizes, err := parseSizes(*panesFlag)
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, codeman, cpuConfig)
	var panes workingPanes
	var results []cpuSize
	server := 0
	for _, n := range sizes {
		attached := len(panes.ids)
		r.addWorkingPanes(&panes, "w", n, *sessionsFlag)
		generators := fmt.Sprintf("%d %s panes", len(panes.ids), *genFlag)
		if r.daemon == nil {
			server = r.serverPID()
			if *baseFlag {
				time.Sleep(2 * time.Second) // let the panes' first frames settle
				base := measureWindow(*windowFlag, 0, []group{
					{"tmux server", []int{server}},
					{generators, panes.pids},
				})
				t.Logf("baseline, no daemon, %d panes:\n%s", n, base)
			}
			r.startDaemon()
		}
		for _, id := range panes.ids[attached:] {
			r.attach(r.address(id))
		}
		r.waitControlled(n)
		time.Sleep(5 * time.Second) // attach-time snapshots and option writes are not the steady state
		pid := r.daemonPID()
		clients := Children(pid)
		stopPerf := r.perf(t, pid, n)
		win := measureWindow(*windowFlag, pid, []group{
			{"daemon", []int{pid}},
			{fmt.Sprintf("its %d tmux -C clients", len(clients)), clients},
			{"tmux server", []int{server}},
			{generators, panes.pids},
		})
		stopPerf()
		t.Logf("with the daemon watching %d panes:\n%s", n, win)
		results = append(results, cpuSize{panes: n, share: Share(win.cpu[0].Self, win.wall), hwm: win.mem.HWM})
	}

	sends := r.checkNoSends(t)
	inputs := panes.inputs(t)
	t.Logf("no-send check: %d send decisions, %d input events reached the panes", sends, inputs)
	t.Logf("daemon per size, against the budgets (%.2f%% + %.3f%% a pane; %s + %d KiB a pane):\n%s",
		cpuBudgetFixed, cpuBudgetPerPane, MiB(memBudgetFixed), memBudgetPerPane>>10, cpuReport(results))
	for _, s := range results {
		if budget := cpuBudget(s.panes); s.share >= budget {
			t.Errorf("%d panes: daemon used %.2f%% of one core, budget %.2f%%", s.panes, s.share, budget)
		}
		if budget := memBudget(s.panes); s.hwm >= budget {
			t.Errorf("%d panes: daemon VmHWM %s, budget %s", s.panes, MiB(s.hwm), MiB(budget))
		}
	}
}

// cpuReport is one line per size and, with two sizes or more, the fixed
// part and the part per pane fitted to them.
func cpuReport(results []cpuSize) string {
	var b strings.Builder
	xs, ys := make([]float64, len(results)), make([]float64, len(results))
	for i, s := range results {
		fmt.Fprintf(&b, "  %4d panes: CPU %5.2f%% of one core (budget %5.2f%%), VmHWM %s (budget %s)\n",
			s.panes, s.share, cpuBudget(s.panes), MiB(s.hwm), MiB(memBudget(s.panes)))
		xs[i], ys[i] = float64(s.panes), s.share
	}
	if len(results) > 1 {
		fixed, perPane := Fit(xs, ys)
		fmt.Fprintf(&b, "  fitted: %.2f%% + %.4f%% a pane (%.0f µs of CPU a second per pane)\n",
			fixed, perPane, perPane*1e4)
	}
	return b.String()
}

// parseSizes reads -load.panes: ascending numbers of panes, comma-separated.
func parseSizes(list string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 || len(sizes) > 0 && n <= sizes[len(sizes)-1] {
			return nil, fmt.Errorf("read -load.panes %q: want ascending numbers of panes such as 50,100,200", list)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// waitControlled waits until the daemon controls n panes, each through
// its session's control client.
func (r *rig) waitControlled(n int) {
	r.t.Helper()
	wait.For(r.t, fmt.Sprintf("%d panes controlled in control mode", n), 30*time.Second, func() bool {
		st, err := r.client.Panes(context.Background())
		if err != nil || len(st) != n {
			return false
		}
		for _, p := range st {
			if p.Mode != "control" {
				return false
			}
		}
		return true
	})
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
