package replay

import (
	"runtime"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/claude"
)

const okHeader = `{"version":2,"width":80,"height":24}` + "\n"

// readMeasured reads text with lim and returns the bytes allocated
// meanwhile and the error.
func readMeasured(text string, lim limits) (uint64, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := read(strings.NewReader(text), "x.cast", lim)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

// hostile is a recording that asks for too much, and the error it gets.
type hostile struct {
	name, text, want string
}

// checkHostile reads each recording and wants its error, after allocating
// no more than a small multiple of the file (a line is held while it is
// decoded): nothing in proportion to what the recording claims.
func checkHostile(t *testing.T, lim limits, cases []hostile) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			alloc, err := readMeasured(tc.text, lim)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %.300v, want %q", err, tc.want)
			}
			if len(err.Error()) > 300 {
				t.Errorf("error of %d bytes: %.300s", len(err.Error()), err)
			}
			if limit := 8*uint64(len(tc.text)) + 1<<20; alloc > limit {
				t.Errorf("allocated %d bytes reading %d, over %d", alloc, len(tc.text), limit)
			}
		})
	}
}

func TestRead_HostileRecordings(t *testing.T) {
	checkHostile(t, defaultLimits, []hostile{
		{"HugeScreen", `{"version":2,"width":100000000,"height":100000000}` + "\n" + `[0.1, "o", "x"]` + "\n",
			"x.cast:1: header: width 100000000 is not in 1..1000"},
		{"TallScreen", `{"version":2,"width":80,"height":100000000}`, "x.cast:1: header: height 100000000 is not in 1..1000"},
		{"TooManyCells", `{"version":2,"width":1000,"height":1000}`, "x.cast:1: header: 1000x1000 is 1000000 cells, over the limit of 500000"},
		{"ZeroWidth", `{"version":2,"width":0,"height":24}`, "x.cast:1: header: width 0 is not in 1..1000"},
		{"FarTimestamp", `{"version":2,"width":80,"height":24,"timestamp":9000000000000000000}`, "x.cast:1: header: timestamp 9000000000000000000 is not in"},
		{"LongHeader", `{"version":2,"width":80,"height":24,"env":{"A":"` + strings.Repeat("a", 70<<10) + `"}}`, "is over the limit of 65536"},
		{"HugeResize", okHeader + `[0.1, "r", "100000000x100000000"]`, "x.cast:2: resize: width 100000000 is not in 1..1000"},
		{"ResizeOverflow", okHeader + `[0.1, "r", "99999999999999999999x24"]`, `x.cast:2: resize "99999999999999999999x24": want COLSxROWS`},
		{"ResizeGarbage", okHeader + `[0.1, "o", "a"]` + "\n" + `[0.2, "r", "80by24"]`, `x.cast:3: resize "80by24": want COLSxROWS`},
		{"ResizeLongGarbage", okHeader + `[0.1, "r", "` + strings.Repeat("9", 1<<20) + `"]`, "want COLSxROWS"},
		{"FarEvent", okHeader + `[0.1, "o", "a"]` + "\n" + `[1e9, "m", "x"]`, "x.cast:3: event time 1e+09 is not in 0..604800 seconds"},
		{"HugeMarker", okHeader + `[0.1, "m", "hook:` + strings.Repeat("x", 4<<20) + `"]`, "x.cast:2: marker of 4194309 bytes is over the limit of 4194304"},
		{"LongLine", okHeader + `[0.1, "o", "` + strings.Repeat("x", 16<<20) + `"]`, "x.cast:2: line is longer than the limit of 16777216 bytes"},
		{"LongHeaderLine", strings.Repeat(" ", 17<<20), "x.cast:1: line is longer than the limit"},
		{"ManyFields", okHeader + `[0.1, "o", "x"` + strings.Repeat(",0", 1<<20) + `]`, "x.cast:2: event has more than 3 fields"},
		{"LongKind", okHeader + `[0.1, "` + strings.Repeat("k", 1<<20) + `", "x"]`, `x.cast:2: unknown event kind "kkkk`},
	})
}

// The count and total limits are the same code at any size; small ones
// keep the files small.
func TestRead_CountLimits(t *testing.T) {
	lim := defaultLimits
	lim.events = 3
	lim.data = 10
	checkHostile(t, lim, []hostile{
		{"TooManyEvents", okHeader + strings.Repeat(`[0.1, "o", ""]`+"\n", 4), "x.cast:5: more than 3 events"},
		{"TooMuchData", okHeader + `[0.1, "o", "12345"]` + "\n" + `[0.2, "m", "123456"]`, "x.cast:3: event data passes the limit of 10 bytes"},
	})
	// Up to the limits is fine.
	text := okHeader + `[0.1, "o", "12345"]` + "\n" + `[0.2, "m", "12"]` + "\n" + `[0.3, "r", "1x1"]`
	if _, err := read(strings.NewReader(text), "x.cast", lim); err != nil {
		t.Fatal(err)
	}
}

// Run checks a cast built by hand as Read would have, before it allocates
// a screen or runs the clock.
func TestRun_RefusesWhatReadWould(t *testing.T) {
	for _, tc := range []struct {
		name string
		cast Cast
		want string
	}{
		{"HugeScreen", Cast{Name: "h.cast", Header: Header{Version: 2, Width: 100000000, Height: 100000000}}, "h.cast: header: width 100000000"},
		{"HugeResize", Cast{Name: "r.cast", Header: Header{Version: 2, Width: 80, Height: 24},
			Events: []Event{{Time: 1, Kind: "r", Data: "80x100000000", Line: 7}}}, "r.cast:7: resize: height 100000000"},
		{"FarEvent", Cast{Name: "t.cast", Header: Header{Version: 2, Width: 80, Height: 24},
			Events: []Event{{Time: 1e12, Kind: "o", Data: "x", Line: 3}}}, "t.cast:3: event time 1e+12"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(&tc.cast, Options{Config: testConfig(), Agent: claude.DefaultPatterns()})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
