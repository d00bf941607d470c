//go:build linux

package loadtest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// roleEnv makes the test binary run as a load generator in a pane (stdlib
// os/exec test style): the binary is already built, and one small Go
// process per pane is cheaper than the simulated session.
const roleEnv = "CODEMAN_LOADTEST_ROLE"

var (
	loadFlag     = flag.Bool("load", false, "run the load measurements (minutes); see BENCHMARKS.md")
	panesFlag    = flag.String("load.panes", "50,100,200", "working panes watched during the CPU measurement: one window per number, panes added in between")
	sessionsFlag = flag.Int("load.sessions", 5, "tmux sessions the working panes are spread over")
	windowFlag   = flag.Duration("load.window", 60*time.Second, "wall time of each CPU measurement")
	baseFlag     = flag.Bool("load.baseline", true, "measure the load generators alone before the daemon starts")
	genFlag      = flag.String("load.gen", "printer", `what the working panes run: "printer" (status row 10 times a second) or "sim" (codeman sim-claude in a long turn)`)
	latPanesFlag = flag.Int("load.latency-panes", 10, "simulated sessions whose turns end during the latency measurement")
	turnsFlag    = flag.Int("load.turns", 10, "turns per simulated session in the latency measurement")
	staggerFlag  = flag.Duration("load.stagger", 500*time.Millisecond, "delay between the first turns of successive simulated sessions (0: all in lockstep)")
	busyFlag     = flag.Int("load.latency-busy", 0, "working printer panes the daemon also watches during the latency measurement")
	envFlag      = flag.String("load.daemon-env", "", "extra KEY=VALUE,... for the daemon's environment, e.g. GOMAXPROCS=1")
	codemanFlag  = flag.String("load.codeman", "", "measure this codeman binary instead of building cmd/codeman")
	perfFlag     = flag.String("load.perf", "", "record the daemon with perf during each CPU window into this directory (daemon-N.perf.data)")
)

func TestMain(m *testing.M) {
	if os.Getenv(roleEnv) == "printer" {
		os.Exit(PrinterMain(os.Args[1:], os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// TestLoad measures the daemon's CPU and memory with many working panes,
// then the latency from a turn's last output to the first key of a cycle.
func TestLoad(t *testing.T) {
	if !*loadFlag {
		t.Skip("load measurements take minutes; run them with -load (see BENCHMARKS.md)")
	}
	t.Logf("machine: %s", machine())
	codeman := buildCodeman(t, t.TempDir())
	t.Run("CPU", func(t *testing.T) { measureCPU(t, codeman) })
	t.Run("Latency", func(t *testing.T) {
		t.Run("Hooks", func(t *testing.T) { measureLatency(t, codeman, true) })
		t.Run("NoHooks", func(t *testing.T) { measureLatency(t, codeman, false) })
	})
}

// printerArgv runs the test binary as a printer that logs its input to log.
func printerArgv(t testing.TB, log string) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("find the test binary: %v", err)
	}
	return []string{"env", roleEnv + "=printer", exe, "-log", log}
}

// machine describes where the figures come from.
func machine() string {
	model := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	var uts unix.Utsname
	kernel := "unknown kernel"
	if unix.Uname(&uts) == nil {
		kernel = "Linux " + string(bytes.TrimRight(uts.Release[:], "\x00"))
	}
	tmuxVersion, _ := exec.Command("tmux", "-V").Output()
	return fmt.Sprintf("%d cores (%s), %s, %s %s/%s, %s, load average %s",
		runtime.NumCPU(), model, kernel, runtime.Version(), runtime.GOOS, runtime.GOARCH,
		strings.TrimSpace(string(tmuxVersion)), LoadAverage())
}
