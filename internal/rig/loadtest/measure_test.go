//go:build linux

package loadtest

import (
	"fmt"
	"strings"
	"time"
)

// group is a set of processes whose CPU is reported together.
type group struct {
	name string
	pids []int
}

// window is what one measurement saw.
type window struct {
	wall   time.Duration
	groups []group
	cpu    []CPU // per group, used during the window
	sys    SystemCPU
	load   [2]string // load average at the start and the end
	mem    memSamples
	// switches counts the context switches of memPID's threads.
	switches int64
}

// memSamples are VmRSS readings once a second and VmHWM at the end.
type memSamples struct {
	pid         int
	min, max    int64
	last, HWM   int64
	samples     int
	readFailure error
}

func (m *memSamples) sample() {
	mem, err := ReadMem(m.pid)
	if err != nil {
		m.readFailure = err
		return
	}
	if m.samples == 0 || mem.RSS < m.min {
		m.min = mem.RSS
	}
	m.max = max(m.max, mem.RSS)
	m.last, m.HWM = mem.RSS, mem.HWM
	m.samples++
}

// measureWindow reads the groups' CPU times, waits d while sampling the
// memory of memPID (0: none) once a second, and reads them again. The
// harness itself only wakes once a second meanwhile.
func measureWindow(d time.Duration, memPID int, groups []group) window {
	w := window{groups: groups, cpu: make([]CPU, len(groups)), mem: memSamples{pid: memPID}}
	w.load[0] = LoadAverage()
	sys0, _ := ReadSystemCPU()
	switches0, _ := ContextSwitches(memPID)
	for i, g := range groups {
		w.cpu[i] = ReadGroupCPU(g.pids)
	}
	start := time.Now()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	end := time.NewTimer(d)
	defer end.Stop()
	for waiting := true; waiting; {
		select {
		case <-tick.C:
			if memPID != 0 {
				w.mem.sample()
			}
		case <-end.C:
			waiting = false
		}
	}
	for i, g := range groups {
		w.cpu[i] = ReadGroupCPU(g.pids).Sub(w.cpu[i])
	}
	w.wall = time.Since(start)
	sys1, _ := ReadSystemCPU()
	w.sys = SystemCPU{Busy: sys1.Busy - sys0.Busy, Total: sys1.Total - sys0.Total}
	w.load[1] = LoadAverage()
	if memPID != 0 {
		w.mem.sample()
		switches1, _ := ContextSwitches(memPID)
		w.switches = switches1 - switches0
	}
	return w
}

func (w window) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  wall %.1fs, load average %s at the start, %s at the end, machine %.0f%% busy (all cores)\n",
		w.wall.Seconds(), w.load[0], w.load[1], 100*float64(w.sys.Busy)/float64(max(w.sys.Total, 1)))
	for i, g := range w.groups {
		c := w.cpu[i]
		fmt.Fprintf(&b, "  %-28s own %6.2fs = %6.2f%% of one core", g.name, c.Self.Seconds(), Share(c.Self, w.wall))
		if c.Children > 0 {
			fmt.Fprintf(&b, "; exited children %.2fs = %.2f%%", c.Children.Seconds(), Share(c.Children, w.wall))
		}
		b.WriteString("\n")
	}
	if w.mem.pid != 0 {
		fmt.Fprintf(&b, "  daemon context switches: %.0f a second\n", float64(w.switches)/w.wall.Seconds())
		fmt.Fprintf(&b, "  daemon memory: VmRSS %s to %s over %d samples, %s at the end; VmHWM %s",
			MiB(w.mem.min), MiB(w.mem.max), w.mem.samples, MiB(w.mem.last), MiB(w.mem.HWM))
		if w.mem.readFailure != nil {
			fmt.Fprintf(&b, " (a reading failed: %v)", w.mem.readFailure)
		}
		b.WriteString("\n")
	}
	return b.String()
}
