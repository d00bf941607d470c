package notify

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jonboulle/clockwork"
)

func TestOptions_Channels(t *testing.T) {
	chans, err := Options{}.Channels()
	if err != nil || len(chans) != 0 {
		t.Errorf("no settings: %v, %v; want no channel", chans, err)
	}
	o := Options{Command: []string{"/usr/bin/notify-send", "codeman"}, Desktop: true, URL: "https://ntfy.sh/my-topic", Format: "json"}
	chans, err = o.Channels()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ch := range chans {
		names = append(names, ch.Name())
	}
	if want := []string{"command notify-send", "desktop", "url https://ntfy.sh/…"}; !slices.Equal(names, want) {
		t.Errorf("names = %q, want %q", names, want)
	}
	if _, err := (Options{Command: []string{""}}).Channels(); err == nil {
		t.Error("an empty program made a channel")
	}
	if _, err := (Options{URL: "https://ntfy.sh/t", Format: "yaml"}).Channels(); err == nil {
		t.Error("format yaml made a channel")
	}
}

func TestNotifier_ExtraChannelsLast(t *testing.T) {
	n, err := New(Options{URL: "https://ntfy.sh/my-topic", Extra: []Channel{newRecorder("tmux")}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	st := n.Status()
	if len(st.Channels) != 2 || st.Channels[0].Name != "url https://ntfy.sh/…" || st.Channels[1].Name != "tmux" {
		t.Errorf("channels = %+v", st.Channels)
	}
}

// Whatever a channel's error says, a test result shows it on one line
// without credentials.
func TestTest_ResultsShowable(t *testing.T) {
	bad := newRecorder("bad")
	bad.err = errors.New("refused\n\x1b[2J Authorization: Bearer tk_0123456789")
	results := Test(context.Background(), clockwork.NewFakeClock(), []Channel{bad}, TestMessage(t0))
	if got, want := results[0].Err.Error(), `refused \x1b[2J Authorization: Bearer …`; got != want || !errors.Is(results[0].Err, bad.err) {
		t.Errorf("result = %q, want %q", got, want)
	}
}
