// Package demo is `codeman demo`: a simulated Claude Code (Codex,
// GitHub Copilot CLI) session on a private tmux server, a controller with short timings
// attached to it, and the story of one full cycle told as its decisions
// come, checked at the end against what the session received. It drives
// a controller and a tmux pane directly and needs no daemon.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/internal/childenv"
	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/tmux"
)

// Options configure Run.
type Options struct {
	Exe     string        // the codeman binary, which also runs the simulated session
	Out     io.Writer     // where the story is told
	Timeout time.Duration // for one full cycle; default 3m
	Keep    bool          // keep watching after the first cycle, until ctx ends
	Name    string        // tmux -L name; default codeman-demo
	// Agent is the agent the simulated session looks like and the
	// controller reads: "claude" (the default), "codex" or "copilot".
	Agent string
}

// lookupDemoAgent returns the agent called name, the default when name
// is empty, refusing one the simulated session cannot play.
func lookupDemoAgent(name string) (agents.Info, error) {
	if name == "" {
		name = agents.Default
	}
	info, err := agents.Lookup(name)
	if err != nil {
		return agents.Info{}, fmt.Errorf("demo: %w", err)
	}
	if info.Sim.Look == "" {
		return agents.Info{}, fmt.Errorf("demo: the simulated session cannot play %s", info.Label)
	}
	return info, nil
}

// Config is the demo's configuration: the defaults with short waits.
func Config() respawn.Config {
	cfg := respawn.DefaultConfig()
	cfg.CompletionConfirm = 2 * time.Second
	cfg.NoOutputTimeout = 10 * time.Second
	cfg.InterStepDelay = 700 * time.Millisecond
	cfg.AutoAcceptDelay = 2 * time.Second
	cfg.AIIdleCheck.Enabled = false
	cfg.AIPlanCheck.Enabled = false
	cfg.KickstartPrompt = "continue with the next step"
	return cfg
}

// Run starts a simulated session of the agent on a private tmux server,
// attaches a controller with short timings, and narrates until one full
// cycle is done. The server keeps running afterwards so it can be looked
// at; the story ends with how to attach to it and how to stop it.
func Run(ctx context.Context, opts Options) error {
	if opts.Timeout == 0 {
		opts.Timeout = 3 * time.Minute
	}
	if opts.Name == "" {
		opts.Name = "codeman-demo"
	}
	agent, err := lookupDemoAgent(opts.Agent)
	if err != nil {
		return err
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		return errors.New("the demo needs tmux; install it (e.g. apt install tmux) and run again")
	}
	out := opts.Out
	logDir, err := os.MkdirTemp("", "codeman-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(logDir)
	simLog := filepath.Join(logDir, "session.jsonl")
	srv, pane, err := startDemoSession(ctx, opts, agent, simLog)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "codeman demo: a simulated %s session runs in tmux server %q, pane %s.\n", agent.Label, opts.Name, pane)
	if len(agent.Sim.Args) > 0 {
		fmt.Fprintf(out, "It runs with %s, which %s.\n", strings.Join(agent.Sim.Args, " "), agent.Sim.Why)
	}
	fmt.Fprintf(out, "Watch it live from another terminal: tmux -L %s attach -t demo\n\n", opts.Name)

	client := tmux.NewClient(srv, "demo", tmux.ClientOptions{})
	if err := client.Start(ctx); err != nil {
		return err
	}
	defer client.Close()
	// The agent's own reader and timing: Codex takes an Enter that follows
	// typed text too soon for a newline.
	reader, err := agent.New(nil)
	if err != nil {
		return err
	}
	timing := respawn.DefaultSendTiming()
	timing.Pause = max(timing.Pause, agent.SendPause)
	// As the daemon does: Submit reads the box before and after it types.
	timing.Prompt = respawn.NewPromptReader(reader.Classify)
	ctrl := respawn.NewController(respawn.ControllerOptions{
		Pane: "tmux:" + srv.Socket + ":" + pane, Config: agent.Adapt(Config()), Agent: reader,
		Terminal: tmux.NewPaneTerminal(srv, pane, tmux.TerminalOptions{Timing: timing}),
	})
	decisions, cancel := ctrl.Subscribe()
	defer cancel()
	unsub := client.Subscribe(pane, func(data []byte, _ time.Time) { ctrl.Output(data) })
	defer unsub()
	ctrl.Start(ctx)
	defer ctrl.Stop()

	err = narrate(ctx, out, decisions, opts, reader.Command(respawn.StepClear))
	if err == nil {
		err = auditInputs(out, simLog)
	}
	fmt.Fprintf(out, "\nThe session is still running.\n  watch it:  tmux -L %s attach -t demo   (detach with the prefix key, then d)\n  stop it:   tmux -L %s kill-server\n", opts.Name, opts.Name)
	if err != nil {
		capture, _ := srv.Run(context.Background(), "capture-pane", "-p", "-t", pane)
		return fmt.Errorf("%w\nthe pane shows:\n%s", err, capture)
	}
	return nil
}

// narrate prints decisions as they come until cycle 1 is complete.
func narrate(ctx context.Context, out io.Writer, decisions <-chan respawn.Decision, opts Options, clearCmd string) error {
	start := time.Now()
	deadline := time.After(opts.Timeout)
	done := false
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-deadline:
			if done {
				return nil
			}
			return fmt.Errorf("no full cycle within %s", opts.Timeout)
		case d := <-decisions:
			fmt.Fprintf(out, "%6.1fs  %s\n", time.Since(start).Seconds(), d)
			if d.Kind == respawn.DecisionState && strings.HasPrefix(d.Reason, "cycle 1 complete") {
				fmt.Fprintf(out, "\nA full cycle: the turn ended, codeman typed the update prompt, %s, /init and the kickstart prompt,\neach after the previous step finished.\n", clearCmd)
				if !opts.Keep {
					return nil
				}
				done = true
			}
		}
	}
}

// startDemoSession starts (or restarts) the private server with the
// simulated session and waits for its prompt box.
func startDemoSession(ctx context.Context, opts Options, agent agents.Info, simLog string) (tmux.Server, string, error) {
	base := []string{"-L", opts.Name, "-f", "/dev/null"}
	kill := exec.CommandContext(ctx, "tmux", append(base, "kill-server")...)
	kill.Env = demoEnv()
	if kill.Run() == nil {
		// A previous demo's server is shutting down; wait until it is gone
		// or the new session would reach a dying server.
		for i := 0; i < 40; i++ {
			probe := exec.CommandContext(ctx, "tmux", append(base, "list-sessions")...)
			probe.Env = demoEnv()
			if probe.Run() != nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	args := append(base, "new-session", "-d", "-s", "demo", "-x", "200", "-y", "50", "-P", "-F", "#{pane_id} #{socket_path}")
	cmd := exec.CommandContext(ctx, "tmux", append(args, simCommand(opts.Exe, agent, simLog)...)...)
	cmd.Env = demoEnv()
	b, err := cmd.CombinedOutput()
	if err != nil {
		return tmux.Server{}, "", fmt.Errorf("start the demo tmux server: %v: %s", err, strings.TrimSpace(string(b)))
	}
	pane, socket, ok := strings.Cut(strings.TrimSpace(string(b)), " ")
	if !ok {
		return tmux.Server{}, "", fmt.Errorf("start the demo tmux server: unexpected answer %q", b)
	}
	srv := tmux.Server{Socket: socket}
	if v, err := srv.Version(ctx); err == nil && strings.HasPrefix(v, "3.2") {
		// tmux 3.2 sizes a detached session by default-size (80x24) when
		// window-size is latest, whatever -x and -y say.
		_, _ = srv.Run(ctx, "resize-window", "-t", pane, "-x", "200", "-y", "50") // a smaller demo still runs
	}
	waitCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	for {
		screen, err := srv.Run(waitCtx, "capture-pane", "-p", "-t", pane)
		if err == nil && strings.Contains(screen, agent.Sim.Ready) {
			return srv, pane, nil
		}
		select {
		case <-waitCtx.Done():
			return tmux.Server{}, "", fmt.Errorf("the simulated session did not draw its prompt box within 15s:\n%s", screen)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// simCommand is the command line of the simulated session playing agent.
func simCommand(exe string, agent agents.Info, simLog string) []string {
	args := []string{exe, "sim-claude", "--prompt", agent.Sim.Prompt, "--work", "3s", "--log", simLog}
	if agent.Sim.Look != simclaude.LookClaude {
		args = append(args, "--look", agent.Sim.Look)
	}
	return append(args, agent.Sim.Args...)
}

// auditInputs reads what the simulated session received and checks that
// nothing arrived while it worked or showed a question.
func auditInputs(out io.Writer, simLog string) error {
	entries, err := simclaude.ReadLog(simLog)
	if err != nil {
		return fmt.Errorf("read the session's input log: %w", err)
	}
	inputs := 0
	for _, e := range entries {
		switch e.Kind {
		case "submit", "key", "paste", "queued":
		default:
			continue
		}
		inputs++
		if e.Busy || (e.Dialog != "" && e.Dialog != "plan") {
			return fmt.Errorf("input %q reached the session while busy=%t dialog=%q", e.Text+e.Key, e.Busy, e.Dialog)
		}
		if e.Key == "enter" && e.Text == "\n" {
			return errors.New("an Enter reached the session as a newline of the text typed before it, not as a submit")
		}
	}
	fmt.Fprintf(out, "Checked the session's input log: %d inputs arrived, none while it worked or asked a question.\n", inputs)
	return nil
}

// demoEnv keeps the demo off the caller's own tmux server.
func demoEnv() []string { return childenv.Without(os.Environ(), "TMUX", "TMUX_PANE") }
