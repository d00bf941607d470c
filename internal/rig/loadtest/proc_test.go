//go:build linux

package loadtest

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseStat_CommandWithSpacesAndParens(t *testing.T) {
	line := "4242 (tmux: client) (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 130 7 3 20 0 1 0 100 1000 200\n"
	f, err := parseStat([]byte(line), 4242)
	if err != nil {
		t.Fatal(err)
	}
	if f[0] != "S" || f[1] != "1" {
		t.Fatalf("state and ppid = %q %q, want S 1", f[0], f[1])
	}
	cpu, err := cpuFromFields(f, 4242)
	if err != nil {
		t.Fatal(err)
	}
	if want := (CPU{Self: 3800 * time.Millisecond, Children: 100 * time.Millisecond}); cpu != want {
		t.Fatalf("cpu = %+v, want %+v", cpu, want)
	}
}

func TestParseStat_Truncated(t *testing.T) {
	if _, err := parseStat([]byte("7 (x) S 1 2"), 7); err == nil || !strings.Contains(err.Error(), "/proc/7/stat") {
		t.Fatalf("error %v, want one naming /proc/7/stat", err)
	}
}

func TestParseStatus(t *testing.T) {
	data := "Name:\tcodeman\nVmPeak:\t 1000 kB\nVmHWM:\t   20480 kB\nVmRSS:\t   10240 kB\nThreads:\t9\n"
	m, err := parseStatus([]byte(data), 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.RSS != 10<<20 || m.HWM != 20<<20 {
		t.Fatalf("mem = %+v, want RSS 10 MiB and HWM 20 MiB", m)
	}
	if _, err := parseStatus([]byte("Name:\tx\n"), 1); err == nil {
		t.Fatal("status without VmRSS parsed")
	}
}

func TestParseSystemStat(t *testing.T) {
	s, err := parseSystemStat([]byte("cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 1 2 3 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (SystemCPU{Busy: 1600 * time.Millisecond, Total: 10 * time.Second}); s != want {
		t.Fatalf("system = %+v, want %+v", s, want)
	}
}

func TestReadCPUAndChildren_ThisProcess(t *testing.T) {
	if _, err := ReadCPU(os.Getpid()); err != nil {
		t.Fatal(err)
	}
	if m, err := ReadMem(os.Getpid()); err != nil || m.RSS <= 0 || m.HWM < m.RSS {
		t.Fatalf("ReadMem = %+v, %v", m, err)
	}
	if kids := Children(os.Getppid()); !slices.Contains(kids, os.Getpid()) {
		t.Fatalf("Children(%d) = %v, want it to hold %d", os.Getppid(), kids, os.Getpid())
	}
}

func TestParseSwitches(t *testing.T) {
	n, err := parseSwitches([]byte("Name:\tx\nvoluntary_ctxt_switches:\t120\nnonvoluntary_ctxt_switches:\t7\n"))
	if err != nil || n != 127 {
		t.Fatalf("parseSwitches = %d, %v, want 127", n, err)
	}
	if n, err := ContextSwitches(os.Getpid()); err != nil || n <= 0 {
		t.Fatalf("ContextSwitches(self) = %d, %v", n, err)
	}
}
