//go:build linux

package loadtest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of the CPU times in /proc/PID/stat: USER_HZ, which
// the kernel fixes at 100 for user space whatever its own HZ is.
const userHZ = 100

// CPU is a process's CPU time from /proc/PID/stat.
type CPU struct {
	Self     time.Duration // utime + stime
	Children time.Duration // cutime + cstime: children that exited and were waited for
}

// Add sums two readings, for groups of processes.
func (c CPU) Add(o CPU) CPU { return CPU{Self: c.Self + o.Self, Children: c.Children + o.Children} }

// Sub is the CPU used between two readings.
func (c CPU) Sub(o CPU) CPU { return CPU{Self: c.Self - o.Self, Children: c.Children - o.Children} }

// Total is the process's own time and its reaped children's.
func (c CPU) Total() time.Duration { return c.Self + c.Children }

// statFields returns the fields of /proc/PID/stat after the command name,
// which may hold spaces and parentheses: field 3 (state) is at index 0.
func statFields(pid int) ([]string, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, fmt.Errorf("read process stat: %w", err)
	}
	return parseStat(data, pid)
}

func parseStat(data []byte, pid int) ([]string, error) {
	end := bytes.LastIndexByte(data, ')')
	if end < 0 {
		return nil, fmt.Errorf("read /proc/%d/stat: no ')' after the command name", pid)
	}
	fields := strings.Fields(string(data[end+1:]))
	if len(fields) < 15 {
		return nil, fmt.Errorf("read /proc/%d/stat: %d fields after the command name, want at least 15", pid, len(fields))
	}
	return fields, nil
}

// ReadCPU reads a process's CPU times.
func ReadCPU(pid int) (CPU, error) {
	f, err := statFields(pid)
	if err != nil {
		return CPU{}, err
	}
	return cpuFromFields(f, pid)
}

// cpuFromFields reads utime, stime, cutime and cstime (fields 14 to 17).
func cpuFromFields(f []string, pid int) (CPU, error) {
	var ticks [4]int64
	for i := range ticks {
		n, err := strconv.ParseInt(f[11+i], 10, 64)
		if err != nil {
			return CPU{}, fmt.Errorf("read /proc/%d/stat field %d: %w", pid, 14+i, err)
		}
		ticks[i] = n
	}
	tick := time.Second / userHZ
	return CPU{Self: time.Duration(ticks[0]+ticks[1]) * tick, Children: time.Duration(ticks[2]+ticks[3]) * tick}, nil
}

// ReadGroupCPU sums the CPU of pids; a process that is gone counts zero.
func ReadGroupCPU(pids []int) CPU {
	var sum CPU
	for _, pid := range pids {
		if c, err := ReadCPU(pid); err == nil {
			sum = sum.Add(c)
		}
	}
	return sum
}

// Mem is a process's memory from /proc/PID/status, in bytes.
type Mem struct {
	RSS int64 // VmRSS: resident now
	HWM int64 // VmHWM: the peak of VmRSS
}

// ReadMem reads VmRSS and VmHWM.
func ReadMem(pid int) (Mem, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Mem{}, fmt.Errorf("read process status: %w", err)
	}
	return parseStatus(data, pid)
}

func parseStatus(data []byte, pid int) (Mem, error) {
	var m Mem
	var seen int
	for _, line := range strings.Split(string(data), "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok || (key != "VmRSS" && key != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "kB")), 10, 64)
		if err != nil {
			return Mem{}, fmt.Errorf("read /proc/%d/status key %s: %w", pid, key, err)
		}
		if key == "VmRSS" {
			m.RSS = kb << 10
		} else {
			m.HWM = kb << 10
		}
		seen++
	}
	if seen != 2 {
		return Mem{}, fmt.Errorf("read /proc/%d/status: VmRSS or VmHWM missing", pid)
	}
	return m, nil
}

// ContextSwitches sums voluntary and involuntary context switches over a
// process's live threads: how often it went to sleep and woke up.
func ContextSwitches(pid int) (int64, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/[0-9]*/status", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("list threads of process %d: none found", pid)
	}
	var sum int64
	for _, path := range tasks {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // the thread exited while listed
		}
		n, err := parseSwitches(data)
		if err != nil {
			return 0, fmt.Errorf("read %s: %w", path, err)
		}
		sum += n
	}
	return sum, nil
}

func parseSwitches(data []byte) (int64, error) {
	var sum int64
	for _, line := range strings.Split(string(data), "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok || (key != "voluntary_ctxt_switches" && key != "nonvoluntary_ctxt_switches") {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("key %s: %w", key, err)
		}
		sum += n
	}
	return sum, nil
}

// Children lists the live processes whose parent is pid.
func Children(pid int) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, d := range dirs {
		child, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		f, err := statFields(child)
		if err != nil {
			continue // exited while listed
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == pid {
			out = append(out, child)
		}
	}
	return out
}

// SystemCPU is the machine's CPU time from the first line of /proc/stat:
// busy (everything but idle and iowait) and total, over all cores.
type SystemCPU struct {
	Busy, Total time.Duration
}

// ReadSystemCPU reads /proc/stat.
func ReadSystemCPU() (SystemCPU, error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return SystemCPU{}, fmt.Errorf("read system stat: %w", err)
	}
	return parseSystemStat(data)
}

func parseSystemStat(data []byte) (SystemCPU, error) {
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return SystemCPU{}, fmt.Errorf("read /proc/stat: first line %q is not the cpu total", line)
	}
	var s SystemCPU
	tick := time.Second / userHZ
	// user nice system idle iowait irq softirq steal (guest time is in user already).
	for i, v := range f[1:min(len(f), 9)] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return SystemCPU{}, fmt.Errorf("read /proc/stat column %d: %w", i+1, err)
		}
		s.Total += time.Duration(n) * tick
		if i != 3 && i != 4 {
			s.Busy += time.Duration(n) * tick
		}
	}
	return s, nil
}

// LoadAverage returns the 1, 5 and 15 minute load averages as
// /proc/loadavg prints them.
func LoadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
