package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/daemon"
	"github.com/codeman-dev/codeman/respawn"
)

func daemonCommand() *cli.Command {
	return &cli.Command{
		Name:  "daemon",
		Usage: "run the controller host in the foreground (commands that need it start it on their own)",
		Action: func(c *cli.Context) error {
			if os.Getenv("GOMAXPROCS") == "" {
				// The daemon waits on pipes and timers; one processor spares
				// the scheduler's hand-offs between the goroutines that read
				// tmux and the controllers they wake (BENCHMARKS.md).
				runtime.GOMAXPROCS(1)
			}
			paths, err := daemon.DefaultPaths(os.Getenv)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(paths.State, 0o700); err != nil {
				return fmt.Errorf("create state dir: %w", err)
			}
			logFile, err := os.OpenFile(paths.Log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
			if err != nil {
				return fmt.Errorf("open daemon log: %w", err)
			}
			defer logFile.Close()
			logger := slog.New(slog.NewTextHandler(logFile, nil))

			// The first signal drains; a second one aborts.
			ctx, stop := signal.NotifyContext(c.Context, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
			defer stop()
			go func() {
				<-ctx.Done()
				stop()
				second := make(chan os.Signal, 1)
				signal.Notify(second, syscall.SIGTERM, syscall.SIGINT)
				<-second
				os.Exit(exitError)
			}()
			d := daemon.New(daemon.Options{Paths: paths, ConfigPath: respawn.DefaultConfigPath(), Version: resolveVersion(), Logger: logger})
			fmt.Fprintf(c.App.ErrWriter, "codeman daemon: listening on %s, logging to %s\n", paths.Socket, paths.Log)
			return d.Run(ctx)
		},
	}
}
