package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/daemon"
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
			paths, err := api.DefaultPaths(os.Getenv)
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
			ready := readyPipe(c.App.ErrWriter, paths)
			d := daemon.New(daemon.Options{Paths: paths, ConfigPath: config.DefaultPath(), Version: resolveVersion(), Logger: logger, Ready: ready})
			return d.Run(ctx)
		},
	}
}

// readyPipe returns the daemon's Ready callback: it says "listening" on
// errw, and when a client started this daemon (api.ReadyFDEnv), it
// tells that client through the pipe whether the start worked.
func readyPipe(errw io.Writer, paths api.Paths) func(error) {
	var pipe *os.File
	if fd, err := strconv.Atoi(os.Getenv(api.ReadyFDEnv)); err == nil && fd > 2 {
		syscall.CloseOnExec(fd) // no child of the daemon may hold it open
		pipe = os.NewFile(uintptr(fd), "ready")
		os.Unsetenv(api.ReadyFDEnv)
	}
	return func(err error) {
		if err == nil {
			fmt.Fprintf(errw, "codeman daemon: listening on %s, logging to %s\n", paths.Socket, paths.Log)
		}
		if pipe == nil {
			return
		}
		word := "ready\n"
		if err != nil {
			word = "error: " + strings.ReplaceAll(err.Error(), "\n", " ") + "\n"
		}
		pipe.WriteString(word)
		pipe.Close()
	}
}
