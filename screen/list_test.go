package screen

import (
	"context"
	"reflect"
	"testing"
)

func TestParseList(t *testing.T) {
	tests := []struct {
		name string
		out  string
		want []Session
	}{
		{
			name: "Detached",
			out: "There is a screen on:\n" +
				"\t25816.xu\t(11/29/26 20:43:15)\t(Detached)\n" +
				"1 Socket in /run/screen/S-root.\n",
			want: []Session{{Name: "25816.xu", PID: 25816, State: "Detached"}},
		},
		{
			name: "AttachedAndDetached",
			out: "There are screens on:\n" +
				"\t30584.ev\t(11/29/26 20:44:55)\t(Attached)\n" +
				"\t1691.pts-0.host\t(11/29/26 20:40:18)\t(Detached)\n" +
				"2 Sockets in /run/screen/S-root.\n",
			want: []Session{
				{Name: "30584.ev", PID: 30584, State: "Attached"},
				{Name: "1691.pts-0.host", PID: 1691, State: "Detached"},
			},
		},
		{
			name: "Dead",
			out: "There are screens on:\n" +
				"\t32713.ok1\t(11/29/26 20:45:28)\t(Detached)\n" +
				"\t32710.dead1\t(11/29/26 20:45:28)\t(Dead ???)\n" +
				"Remove dead screens with 'screen -wipe'.\n" +
				"2 Sockets in /tmp/sd1.\n",
			want: []Session{
				{Name: "32713.ok1", PID: 32713, State: "Detached"},
				{Name: "32710.dead1", PID: 32710, State: "Dead ???"},
			},
		},
		{
			name: "MultiUser",
			out: "There are screens on:\n" +
				"\t4242.shared\t(03/01/2024 09:12:01 AM)\t(Multi, attached)\n" +
				"\t4243.lab\t(03/01/2024 09:13:44 AM)\t(Multi, detached)\n" +
				"\t4244.theirs\t(03/01/2024 09:14:00 AM)\t(Private)\n" +
				"3 Sockets in /run/screen/S-alice.\n",
			want: []Session{
				{Name: "4242.shared", PID: 4242, State: "Multi, attached"},
				{Name: "4243.lab", PID: 4243, State: "Multi, detached"},
				{Name: "4244.theirs", PID: 4244, State: "Private"},
			},
		},
		{
			name: "NoDateBefore44",
			out:  "There is a screen on:\n\t8123.pts-3.build\t(Attached)\n1 Socket in /var/run/screen/S-bob.\n\n",
			want: []Session{{Name: "8123.pts-3.build", PID: 8123, State: "Attached"}},
		},
		{
			name: "None",
			out:  "No Sockets found in /run/screen/S-root.\n\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseList(tt.out)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseList:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseList_Errors(t *testing.T) {
	for _, out := range []string{
		"",
		"Directory '/run/screen' must have mode 777.\n",
		"There is a screen on:\n\tnotapid.name\t(Detached)\n",
	} {
		if got, err := parseList(out); err == nil {
			t.Errorf("parseList(%q) = %v, want an error", out, got)
		}
	}
}

func TestSession_Live(t *testing.T) {
	for state, want := range map[string]bool{
		"Attached": true, "Detached": true, "Multi, attached": true, "Multi, detached": true,
		"Dead ???": false, "Private": false, "Remote or dead": false, "": false,
	} {
		if got := (Session{State: state}).Live(); got != want {
			t.Errorf("Session{State: %q}.Live() = %v, want %v", state, got, want)
		}
	}
}

func TestListSessions_KeepsDeadOnes(t *testing.T) {
	f := newFakeScreen("1.x")
	f.ls = "There are screens on:\n\t12.a\t(Detached)\n\t13.b\t(Dead ???)\n2 Sockets in /s.\n"
	got, err := listSessions(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if names := sessionNames(got); names != "12.a, 13.b" {
		t.Errorf("sessions = %s, want 12.a, 13.b", names)
	}
}
