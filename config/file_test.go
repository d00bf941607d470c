package config_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"pgregory.net/rapid"

	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestParse_Golden parses each good file and compares the printed
// effective config of [respawn] and of each user profile with its golden
// file. Run with -update to rewrite them, then review the diff.
func TestParse_Golden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".toml"), func(t *testing.T) {
			f := mustLoadConfig(t, path)
			var out bytes.Buffer
			for _, profile := range append([]string{""}, sortedProfiles(f)...) {
				if err := f.Encode(&out, profile); err != nil {
					t.Fatalf("encode %q: %v", profile, err)
				}
				out.WriteString("\n")
			}
			golden := strings.TrimSuffix(path, ".toml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update): %v", err)
			}
			if got := out.String(); got != string(want) {
				t.Errorf("printed config differs from %s:\n%s", golden, got)
			}
		})
	}
}

func mustLoadConfig(t *testing.T, path string) *config.File {
	t.Helper()
	f, err := config.Load(path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	return f
}

func sortedProfiles(f *config.File) []string {
	var names []string
	for name := range f.Profiles {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func TestParse_FullSetsEveryKey(t *testing.T) {
	f := mustLoadConfig(t, "testdata/full.toml")
	want := respawn.Config{
		Agent:              "claude",
		UpdatePrompt:       "note your progress in NOTES.md, then keep going.",
		InterStepDelay:     2 * time.Second,
		SendClear:          false,
		SendInit:           true,
		KickstartPrompt:    "pick the next open item in TASKS.md",
		CompletionConfirm:  12 * time.Second,
		NoOutputTimeout:    90 * time.Second,
		AutoAcceptPrompts:  false,
		AutoAcceptDelay:    0,
		StuckDetection:     false,
		StuckWarning:       6 * time.Minute,
		StuckRecovery:      12 * time.Minute,
		MaxStuckRecoveries: 5,
		Duration:           8 * time.Hour,
		ResumePrompt:       "",
		UsageLimitMargin:   2 * time.Minute,
		APIErrorBackoff:    10 * time.Minute,
		AIIdleCheck:        respawn.CheckConfig{Enabled: false, Model: "claude-sonnet-4-5", MaxContext: 20000, Timeout: 2 * time.Minute, Cooldown: 4 * time.Minute},
		AIPlanCheck:        respawn.CheckConfig{Enabled: true, Model: "us.anthropic/haiku-4.5", MaxContext: 4000, Timeout: 30 * time.Second, Cooldown: 15 * time.Second},
	}
	if f.Respawn != want {
		t.Errorf("Respawn = %+v\nwant %+v", f.Respawn, want)
	}
	if want := (config.Screen{PollInterval: 500 * time.Millisecond, SendPause: 300 * time.Millisecond}); f.Screen != want {
		t.Errorf("Screen = %+v, want %+v", f.Screen, want)
	}
	if want := (config.Tmux{SendPause: 250 * time.Millisecond, EnterRetries: 5}); f.Tmux != want {
		t.Errorf("Tmux = %+v, want %+v", f.Tmux, want)
	}
	if want := (config.Checks{ClaudePath: "/opt/claude/bin/claude", MaxConcurrent: 4}); f.Checks != want {
		t.Errorf("Checks = %+v, want %+v", f.Checks, want)
	}
	wantPatterns := []respawn.PatternSpec{
		{Name: "my-busy-marker", Kind: "working", Scope: "screen", Regexp: `Compiling \d+ crates`, Line: 56},
		{Name: "deploy-question", Kind: "question", Scope: "screen", Regexp: `Deploy to (staging|prod)\?`, Line: 62},
	}
	if !reflect.DeepEqual(f.Patterns, wantPatterns) {
		t.Errorf("Patterns = %+v\nwant %+v", f.Patterns, wantPatterns)
	}
	if f.Path != "testdata/full.toml" {
		t.Errorf("Path = %q", f.Path)
	}
}

func TestParse_Styles(t *testing.T) {
	f := mustLoadConfig(t, "testdata/styles.toml")
	c := f.Respawn
	wantPrompt := "Write a summary to CLAUDE.md:\n  - what changed, with \"quotes\" and a \\ backslash\n  - what comes next"
	if c.UpdatePrompt != wantPrompt {
		t.Errorf("UpdatePrompt = %q, want %q", c.UpdatePrompt, wantPrompt)
	}
	if c.KickstartPrompt != `C:\work\next step` || c.SendClear || c.AIIdleCheck.Model != "sonnet" ||
		c.AIPlanCheck.Enabled || c.AIPlanCheck.Cooldown != time.Minute {
		t.Errorf("Respawn = %+v", c)
	}
	if f.Screen.PollInterval != 2*time.Second {
		t.Errorf("PollInterval = %v, want 2s", f.Screen.PollInterval)
	}
	if len(f.Patterns) != 2 || f.Patterns[1].Scope != "stream" || f.Patterns[0].Line != 4 || f.Patterns[1].Line != 5 {
		t.Errorf("Patterns = %+v", f.Patterns)
	}
}

func TestParse_CRLFPrompt(t *testing.T) {
	f, err := config.Parse("c.toml", []byte("[respawn]\r\nupdate_prompt = \"\"\"\r\nline one\r\nline two\r\n\"\"\"\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "line one\nline two\n"; f.Respawn.UpdatePrompt != want {
		t.Errorf("UpdatePrompt = %q, want %q", f.Respawn.UpdatePrompt, want)
	}
}

func TestParse_OnlyProfile(t *testing.T) {
	f, err := config.Parse("config.toml", []byte("[profile.x]\nsend_init = false\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Respawn != respawn.DefaultConfig() {
		t.Errorf("Respawn = %+v, want the defaults", f.Respawn)
	}
	want := respawn.DefaultConfig()
	want.SendInit = false
	if got, err := f.Profile("x"); err != nil || got != want {
		t.Errorf("Profile(x) = %+v, %v; want %+v", got, err, want)
	}
}

func TestFile_ProfileOverlayOrder(t *testing.T) {
	const text = `
[respawn]
inter_step_delay = "7s"
kickstart_prompt = "from respawn"
max_stuck_recoveries = 9

[profile.ralph-todo]
kickstart_prompt = "from the profile"

[profile.mine]
send_clear = false
`
	f, err := config.Parse("config.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	ralph, err := f.Profile("ralph-todo")
	if err != nil {
		t.Fatal(err)
	}
	if ralph.KickstartPrompt != "from the profile" {
		t.Errorf("user profile did not override the preset: kickstart %q", ralph.KickstartPrompt)
	}
	if ralph.InterStepDelay != 3*time.Second || ralph.Duration != 480*time.Minute || ralph.CompletionConfirm != 8*time.Second {
		t.Errorf("preset did not override [respawn]: %+v", ralph)
	}
	if ralph.MaxStuckRecoveries != 9 {
		t.Errorf("[respawn] key the preset leaves alone = %d, want 9", ralph.MaxStuckRecoveries)
	}
	if !strings.Contains(ralph.UpdatePrompt, "@fix_plan.md") {
		t.Errorf("preset update prompt lost: %q", ralph.UpdatePrompt)
	}

	mine, _ := f.Profile("mine")
	want := f.Respawn
	want.SendClear = false
	if mine != want {
		t.Errorf("Profile(mine) = %+v\nwant %+v", mine, want)
	}

	solo, _ := f.Profile("solo-work")
	if solo.KickstartPrompt == "from respawn" || solo.MaxStuckRecoveries != 9 || solo.Duration != time.Hour {
		t.Errorf("Profile(solo-work) = %+v", solo)
	}
	if base, _ := f.Profile(""); base != f.Respawn {
		t.Errorf(`Profile("") = %+v, want [respawn]`, base)
	}
}

// TestFile_ProfileLaidOverBase: a profile sets only its own keys, down to
// one key of a sub-table; every other key, in the same sub-table too, keeps
// the value [respawn] gives it.
func TestFile_ProfileLaidOverBase(t *testing.T) {
	const text = `
[respawn]
update_prompt = "base update"
completion_confirm = "20s"
no_output_timeout = "40s"
send_init = false
max_stuck_recoveries = 7

[respawn.ai_idle_check]
enabled = false
model = "sonnet"
cooldown = "1m"

[profile.p.ai_idle_check]
model = "opus"
`
	f, err := config.Parse("config.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Profile("p")
	if err != nil {
		t.Fatal(err)
	}
	want := f.Respawn
	want.AIIdleCheck.Model = "opus"
	if got != want {
		t.Errorf("Profile(p) = %+v\nwant %+v", got, want)
	}
	if f.Respawn.AIIdleCheck.Model != "sonnet" || f.Respawn.UpdatePrompt != "base update" || f.Respawn.SendInit {
		t.Errorf("the profile changed [respawn]: %+v", f.Respawn)
	}
}

// TestFile_ProfileConcurrent reads presets from several goroutines, as
// the daemon does for panes attached at once (run with -race).
func TestFile_ProfileConcurrent(t *testing.T) {
	f := config.Default()
	want, _ := f.Profile("team-lead")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, name := range config.PresetNames() {
				if c, err := f.Profile(name); err != nil || name == "team-lead" && c != want {
					t.Errorf("Profile(%s) = %+v, %v", name, c, err)
				}
			}
		})
	}
	wg.Wait()
}

func TestFile_ProfileUnknown(t *testing.T) {
	f, err := config.Parse("config.toml", []byte("[profile.zed]\n[profile.alpha]\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Profile("nope")
	want := `unknown profile "nope" (known: alpha, overnight-autonomous, ralph-todo, solo-work, subagent-workflow, team-lead, zed)`
	if err == nil || err.Error() != want {
		t.Errorf("Profile(nope) error = %v, want %s", err, want)
	}
}

func TestFile_ProfileNames(t *testing.T) {
	f, err := config.Parse("config.toml", []byte("[profile.solo-work]\n[profile.a]\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "overnight-autonomous", "ralph-todo", "solo-work", "subagent-workflow", "team-lead"}
	if got := f.ProfileNames(); !slices.Equal(got, want) {
		t.Errorf("ProfileNames = %v, want %v", got, want)
	}
	if got := config.Default().ProfileNames(); !slices.Equal(got, config.PresetNames()) {
		t.Errorf("Default ProfileNames = %v, want the presets", got)
	}
}

func TestParse_Errors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"Syntax", "[respawn]\nsend_clear = \n",
			`config.toml:2: expected value but found '\n' instead`},
		{"DuplicateKey", "[respawn]\nsend_clear = true\nsend_clear = false\n",
			`config.toml:3: Key 'respawn.send_clear' has already been defined.`},
		{"UnknownKey", "[respawn]\n\nsend_clera = true\n",
			`config.toml:3: key "respawn.send_clera": unknown key (did you mean "send_clear"?)`},
		{"UnknownSubKey", "[respawn.ai_idle_check]\nmodle = \"x\"\n",
			`config.toml:2: key "respawn.ai_idle_check.modle": unknown key (did you mean "model"?)`},
		{"UnknownTable", "[respwan]\nsend_clear = true\n",
			`config.toml:1: key "respwan": unknown key (did you mean "respawn"?)`},
		{"KeyOutsideTable", "send_clear = true\n",
			`config.toml:1: key "send_clear": unknown key (it belongs in [respawn])`},
		{"UnknownProfileKey", "[profile.night]\nfoo = 1\n",
			`config.toml:2: key "profile.night.foo": unknown key`},
		{"UnknownPatternKey", "[[pattern]]\nname = \"a\"\n[[pattern]]\nnmae = \"b\"\n",
			`config.toml:4: key "pattern[1].nmae": unknown key (did you mean "name"?)`},
		{"WrongTypeBool", "[respawn]\nsend_clear = \"yes\"\n",
			`config.toml:2: key "respawn.send_clear": expected true or false, got string "yes"`},
		{"WrongTypeInt", "[tmux]\nenter_retries = 2.5\n",
			`config.toml:2: key "tmux.enter_retries": expected an integer, got float 2.5`},
		{"WrongTypeString", "[respawn]\nupdate_prompt = 3\n",
			`config.toml:2: key "respawn.update_prompt": expected a string, got integer 3`},
		{"DurationAsInteger", "[respawn]\ncompletion_confirm = 10\n",
			`config.toml:2: key "respawn.completion_confirm": expected a duration string such as "10s", got integer 10`},
		{"DurationMissingUnit", "\n[respawn]\n# the silence\ncompletion_confirm = \"10\"\n",
			`config.toml:4: key "respawn.completion_confirm": invalid duration "10": missing unit`},
		{"DurationUnknownUnit", "[respawn]\nduration = \"2d\"\n",
			`config.toml:2: key "respawn.duration": invalid duration "2d": unknown unit (use ms, s, m or h)`},
		{"DurationGarbage", "[screen]\npoll_interval = \"soon\"\n",
			`config.toml:2: key "screen.poll_interval": invalid duration "soon": expected a number and a unit, such as "10s" or "1m30s"`},
		{"ScalarForSubTable", "[respawn]\nai_idle_check = true\n",
			`config.toml:2: key "respawn.ai_idle_check": expected a table, got boolean true`},
		{"ScalarForTable", "tmux = 3\n",
			`config.toml:1: key "tmux": expected a table, got integer 3`},
		{"TableForScalar", "[respawn.send_clear]\n",
			`config.toml:1: key "respawn.send_clear": expected true or false, got a table`},
		{"BadProfileName", "[profile.\"night shift\"]\n",
			`config.toml:1: key "profile.night shift": profile names may use only letters, digits, '_' and '-'`},
		{"OutOfRange", "[respawn]\ncompletion_confirm = \"0s\"\n",
			`config.toml:2: key "respawn.completion_confirm": must be between 1s and 10m, not 0s`},
		{"OutOfRangeSubTable", "[respawn]\nai_plan_check.max_context = 10\n",
			`config.toml:2: key "respawn.ai_plan_check.max_context": must be between 1000 and 500000, not 10`},
		{"RelationBlamesTheKeySet", "[respawn]\ncompletion_confirm = \"1m\"\n",
			`config.toml:2: key "respawn.completion_confirm": no_output_timeout must be at least completion_confirm (1m), not 30s`},
		{"RelationBlamesTheKeyFirst", "[respawn]\ncompletion_confirm = \"1m\"\nno_output_timeout = \"40s\"\n",
			`config.toml:3: key "respawn.no_output_timeout": must be at least completion_confirm (1m), not 40s`},
		{"ProfileOutOfRange", "[respawn]\n\n[profile.fast]\ninter_step_delay = \"1ms\"\n",
			`config.toml:4: key "profile.fast.inter_step_delay": must be between 100ms and 1m, not 1ms`},
		{"ProfileRelation", "[profile.slow]\nstuck_warning = \"20m\"\n",
			`config.toml:2: key "profile.slow.stuck_warning": must be below stuck_recovery (10m), not 20m`},
		{"PresetProfileOverride", "[profile.team-lead]\nno_output_timeout = \"1m\"\n",
			`config.toml:2: key "profile.team-lead.no_output_timeout": must be at least completion_confirm (1m30s), not 1m`},
		{"ScreenRange", "[screen]\npoll_interval = \"50ms\"\n",
			`config.toml:2: key "screen.poll_interval": must be between 200ms and 10s, not 50ms`},
		{"TmuxRange", "[tmux]\nsend_pause = \"1s\"\nenter_retries = 11\n",
			`config.toml:3: key "tmux.enter_retries": must be between 0 and 10, not 11`},
		{"ChecksRange", "[checks]\nmax_concurrent = 0\n",
			`config.toml:2: key "checks.max_concurrent": must be between 1 and 16, not 0`},
		{"PatternKind", "[[pattern]]\nname = \"x\"\nkind = \"busy\"\nregexp = \"a\"\n",
			`config.toml:3: key "pattern[0].kind": unknown kind "busy" (want one of working, completion, background_wait, plan_menu, question, permission, dialog, api_error, usage_limit)`},
		{"PatternStreamKind", "[[pattern]]\nname = \"x\"\nkind = \"question\"\nscope = \"stream\"\nregexp = \"a\"\n",
			`config.toml:1: key "pattern[0]": scope stream is only for working and completion patterns`},
		{"PatternMatchesEmpty", "[[pattern]]\nname = \"a\"\nkind = \"working\"\nregexp = \"a\"\n[[pattern]]\nname = \"b\"\nkind = \"working\"\nregexp = \"x*\"\n",
			`config.toml:5: key "pattern[1]": regexp "x*" matches an empty row`},
		{"PatternMissingRegexp", "[[pattern]]\nname = \"x\"\nkind = \"working\"\n",
			`config.toml:1: key "pattern[0].regexp": must not be empty`},
		{"PatternBadRegexp", "[[pattern]]\nname = \"x\"\nkind = \"working\"\nregexp = \"(a\"\n",
			"config.toml:4: key \"pattern[0].regexp\": does not compile: error parsing regexp: missing closing ): `(a`"},
		{"PatternScope", "[[pattern]]\nname = \"x\"\nkind = \"working\"\nscope = \"row\"\nregexp = \"a\"\n",
			`config.toml:4: key "pattern[0].scope": must be "screen" or "stream", not "row"`},
		{"PatternDuplicateName", "[[pattern]]\nname = \"x\"\nkind = \"working\"\nregexp = \"a\"\n\n[[pattern]]\nname = \"x\"\nkind = \"question\"\nregexp = \"b\"\n",
			`config.toml:7: key "pattern[1].name": must be unique, but pattern[0] is also named "x"`},
		{"SeveralInLineOrder", "[tmux]\nenter_retries = \"3\"\n[respawn]\nsend_clear = 1\nbogus = 2\n",
			"config.toml:2: key \"tmux.enter_retries\": expected an integer, got string \"3\"\n" +
				"config.toml:4: key \"respawn.send_clear\": expected true or false, got integer 1\n" +
				"config.toml:5: key \"respawn.bogus\": unknown key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := config.Parse("config.toml", []byte(tt.text))
			if err == nil {
				t.Fatalf("no error; file %+v", f)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
			var ce *config.Error
			if !errors.As(err, &ce) || ce.File != "config.toml" || ce.Line == 0 {
				t.Errorf("error %#v is not a *config.Error with a line", err)
			}
			if f != nil {
				t.Errorf("file returned with an error: %+v", f)
			}
		})
	}
}

func TestParse_PatternNamedLikeBuiltin(t *testing.T) {
	builtin := claude.DefaultPatterns().List()[0].Name
	text := "[[pattern]]\nname = \"" + builtin + "\"\nkind = \"working\"\nregexp = \"a\"\n"
	_, err := config.Parse("config.toml", []byte(text))
	want := `config.toml:1: key "pattern[0]": name already used`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestParse_ValidationNamesRespawnOnce(t *testing.T) {
	_, err := config.Parse("config.toml", []byte("[respawn]\nmax_stuck_recoveries = -1\n[profile.a]\n[profile.b]\n"))
	want := `config.toml:2: key "respawn.max_stuck_recoveries": must be between 0 and 100, not -1`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestError_Unwrap(t *testing.T) {
	_, err := config.Parse("c.toml", []byte("[respawn]\nsend_clear = yes\n"))
	var pe toml.ParseError
	if !errors.As(err, &pe) || pe.Position.Line != 2 || !strings.HasPrefix(err.Error(), "c.toml:2: ") {
		t.Errorf("syntax error %v does not unwrap to toml.ParseError at line 2", err)
	}
	inner := errors.New("boom")
	ce := &config.Error{File: "c.toml", Key: "tmux", Err: inner}
	if !errors.Is(ce, inner) || ce.Error() != `c.toml: key "tmux": boom` {
		t.Errorf("Error = %q, Is(inner) = %t", ce.Error(), errors.Is(ce, inner))
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	t.Run("Missing", func(t *testing.T) {
		path := filepath.Join(dir, "none", "config.toml")
		f, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		want := config.Default()
		want.Path = path
		if !reflect.DeepEqual(f, want) {
			t.Errorf("Load(missing) = %+v, want the defaults", f)
		}
	})
	t.Run("ErrorNamesThePath", func(t *testing.T) {
		path := filepath.Join(dir, "bad.toml")
		if err := os.WriteFile(path, []byte("[tmux]\nsend_pause = 1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := config.Load(path)
		want := path + `:2: key "tmux.send_pause": expected a duration string such as "10s", got integer 1`
		if err == nil || err.Error() != want {
			t.Errorf("error = %v, want %s", err, want)
		}
	})
	t.Run("Unreadable", func(t *testing.T) {
		_, err := config.Load(dir) // a directory
		if err == nil || err.Error() != "read config: "+dir+" is not a regular file but a directory; point it at a config.toml" {
			t.Errorf("error = %v, want a read config error naming the directory", err)
		}
	})
	t.Run("ThroughSymlink", func(t *testing.T) {
		target := filepath.Join(dir, "real.toml")
		if err := os.WriteFile(target, []byte("[tmux]\nenter_retries = 5\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "link.toml")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if f, err := config.Load(link); err != nil || f.Tmux.EnterRetries != 5 {
			t.Fatalf("Load(symlink to a file) = %+v, %v", f, err)
		}
	})
}

// A config file that is not a regular file, or is far too large, is
// refused at once with an error naming it: a FIFO does not block the
// reader, /dev/zero is not read.
func TestLoad_NotAConfigFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.toml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	large := filepath.Join(dir, "large.toml")
	big := bytes.Repeat([]byte("# a comment line of a file far too large\n"), config.MaxFileSize/40)
	if err := os.WriteFile(large, big, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, path, want string }{
		{"FIFO", fifo, fifo + " is not a regular file but a FIFO"},
		{"DevZero", zero, zero + " -> /dev/zero is not a regular file but a character device"},
		{"TooLarge", large, large + " is larger than 4 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { _, err := config.Load(tc.path); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("Load(%s) = %v, want an error saying %q", tc.path, err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("Load(%s) still reads after 10s", tc.path)
			}
		})
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	t.Setenv("XDG_CONFIG_HOME", "/xdg")
	if got := config.DefaultPath(); got != "/xdg/codeman/config.toml" {
		t.Errorf("with XDG_CONFIG_HOME: %q", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative/ignored")
	if got := config.DefaultPath(); got != "/home/u/.config/codeman/config.toml" {
		t.Errorf("with a relative XDG_CONFIG_HOME: %q", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	if got := config.DefaultPath(); got != "/home/u/.config/codeman/config.toml" {
		t.Errorf("without XDG_CONFIG_HOME: %q", got)
	}
}

func TestDefault_Valid(t *testing.T) {
	f := config.Default()
	if err := config.Validate(f.Respawn); err != nil {
		t.Errorf("default [respawn] invalid: %v", err)
	}
	var out bytes.Buffer
	if err := f.Encode(&out, ""); err != nil {
		t.Fatal(err)
	}
	g, err := config.Parse("printed.toml", out.Bytes())
	if err != nil {
		t.Fatalf("parse printed defaults: %v\n%s", err, out.String())
	}
	g.Path = ""
	if !reflect.DeepEqual(g, f) {
		t.Errorf("printed defaults parse to %+v, want %+v", g, f)
	}
}

// TestParse_ErrorLines checks that errors find their key's line through
// TOML layouts that hide look-alike keys or span lines.
func TestParse_ErrorLines(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"KeysInsideMultilineString", "[respawn]\nupdate_prompt = \"\"\"\n[profile.x]\nsend_clear = 1\n\\\"\"\" still inside\n\"\"\"\nsend_clear = 1\n",
			`config.toml:7: key "respawn.send_clear": expected true or false, got integer 1`},
		{"KeysInsideLiteralString", "[respawn]\nkickstart_prompt = '''\nduration = 5\n'''\nduration = 5\n",
			`config.toml:5: key "respawn.duration": expected a duration string such as "10s", got integer 5`},
		{"StringEndingInQuotes", "[respawn]\nupdate_prompt = \"\"\"say \"hi\"\"\"\"\nsend_init = 0\n",
			`config.toml:3: key "respawn.send_init": expected true or false, got integer 0`},
		{"HashAndEqualsInString", "[respawn]\nupdate_prompt = \"a # b = c\" # note = 1\nsend_init = 0\n",
			`config.toml:3: key "respawn.send_init": expected true or false, got integer 0`},
		{"ArraySpanningLines", "pattern = [\n  # a comment = 1\n  { name = \"a\", kind = \"working\", regexp = \"x\" },\n\n  { name = \"b\", kind = \"bad\", regexp = \"y\" },\n]\n",
			`config.toml:5: key "pattern[1].kind": unknown kind "bad" (want one of working, completion, background_wait, plan_menu, question, permission, dialog, api_error, usage_limit)`},
		{"InlineTable", "[respawn]\nsend_init = true\nai_plan_check = { enabled = false, cooldown = 5 }\n",
			`config.toml:3: key "respawn.ai_plan_check.cooldown": expected a duration string such as "10s", got integer 5`},
		{"QuotedKey", "[respawn]\n\n\"completion_confirm\" = \"soon\"\n",
			`config.toml:3: key "respawn.completion_confirm": invalid duration "soon": expected a number and a unit, such as "10s" or "1m30s"`},
		{"DottedKeyWithSpaces", "[profile.p]\nai_idle_check . timeout = \"1\"\n",
			`config.toml:2: key "profile.p.ai_idle_check.timeout": invalid duration "1": missing unit`},
		{"QuotedTableName", "[profile.\"p\"]\n[profile.\"p\".ai_idle_check]\nenabled = \"no\"\n",
			`config.toml:3: key "profile.p.ai_idle_check.enabled": expected true or false, got string "no"`},
		{"TableAfterPatterns", "[[pattern]]\nname = \"a\"\nkind = \"working\"\nregexp = \"x\"\n[respawn.ai_idle_check]\ntimeout = \"1s\"\n",
			`config.toml:6: key "respawn.ai_idle_check.timeout": must be between 10s and 5m, not 1s`},
		{"SecondPattern", "[[pattern]]\nname = \"a\"\nkind = \"working\"\nregexp = \"x\"\n\n[[pattern]]\nname = \"b\"\nkind = \"working\"\nregexp = \"(\"\n",
			"config.toml:9: key \"pattern[1].regexp\": does not compile: error parsing regexp: missing closing ): `(`"},
		{"CRLF", "[respawn]\r\n# comment\r\nsend_clear = \"no\"\r\n",
			`config.toml:3: key "respawn.send_clear": expected true or false, got string "no"`},
		{"ValueOnNextTable", "[respawn]\nsend_clear = true\n\n[tmux]\nsend_pause = \"9s\"\n",
			`config.toml:5: key "tmux.send_pause": must be between 0s and 5s, not 9s`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse("config.toml", []byte(tt.text))
			if err == nil || err.Error() != tt.want {
				t.Errorf("error:\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestParse_ErrorLineProperty prints random valid configs, whose
// prompts hold quotes, backslashes, '=' and newlines, inserts an unknown
// key after a random table header and expects the error on its line.
func TestParse_ErrorLineProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := config.Default()
		f.Respawn = genValidConfig(t)
		f.Patterns = genConfigPatterns(t)
		var out bytes.Buffer
		if err := f.Encode(&out, ""); err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(out.String(), "\n")
		var headers []int
		tableHeaders := []string{"[respawn]\n", "[respawn.ai_idle_check]\n", "[respawn.ai_plan_check]\n",
			"[screen]\n", "[tmux]\n", "[checks]\n", "[[pattern]]\n"}
		for i, line := range lines {
			if slices.Contains(tableHeaders, line) { // a generated prompt spelling a whole header line is too unlikely to matter
				headers = append(headers, i)
			}
		}
		at := rapid.SampledFrom(headers).Draw(t, "header")
		text := strings.Join(lines[:at+1], "") + "bogus_key = 1\n" + strings.Join(lines[at+1:], "")
		_, err := config.Parse("config.toml", []byte(text))
		var ce *config.Error
		if !errors.As(err, &ce) || ce.Line != at+2 || !strings.HasSuffix(ce.Key, "bogus_key") {
			t.Fatalf("error %v, want one at line %d\n%s", err, at+2, text)
		}
	})
}
