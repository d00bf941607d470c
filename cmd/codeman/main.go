// Command codeman keeps Claude Code sessions in tmux panes and GNU screen
// windows working unattended. Each file of this package is one command:
// it parses arguments, calls one package function and prints.
package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/internal/safetext"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
)

func main() {
	if err := newApp().Run(os.Args); err != nil {
		// An error can quote a pane's title or a file's content.
		fmt.Fprintln(os.Stderr, "codeman:", safetext.Text(err.Error()))
		os.Exit(exitError)
	}
}

func newApp() *cli.App {
	return &cli.App{
		Name:                 "codeman",
		Usage:                "keep Claude Code sessions in tmux and GNU screen working unattended",
		HideHelpCommand:      true,
		EnableBashCompletion: true,
		// A --set value is one key=value whole: a prompt has commas in it.
		DisableSliceFlagSeparator: true,
		Commands: []*cli.Command{
			attachCommand(),
			detachCommand(),
			toggleCommand(),
			pauseCommand(),
			answerCommand(),
			resumeCommand(),
			statusCommand(),
			dashCommand(),
			explainCommand(),
			daemonCommand(),
			hooksCommand(),
			hookCommand(),
			replayCommand(),
			logCommand(),
			reportCommand(),
			recordCommand(),
			demoCommand(),
			configCommand(),
			doctorCommand(),
			notifyCommand(),
			versionCommand(),
			simClaudeCommand(),
		},
	}
}
