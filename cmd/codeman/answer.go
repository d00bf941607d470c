package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/safetext"
	"github.com/codeman-dev/codeman/respawn"
)

func answerCommand() *cli.Command {
	return &cli.Command{
		Name:      "answer",
		Usage:     "answer the question or permission prompt a pane waits on, as you would at its keyboard",
		ArgsUsage: "PANE CHOICE",
		Description: "CHOICE is an option's number or label (or the start of one), or allow / deny in a permission prompt.\n" +
			"codeman types it only into the dialog the pane shows now, the one --need names when given\n" +
			"(codeman status --json and codeman explain show the need's id and its options).\n" + paneUsage,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "need", Usage: "answer only the need with this `ID`, refusing when the pane shows another dialog"},
		},
		Action: answer,
	}
}

func answer(c *cli.Context) error {
	if c.NArg() != 2 {
		return errors.New("answer takes PANE and CHOICE: codeman answer %3 2")
	}
	addr, client, err := paneAndClient(c, false)
	if err != nil {
		return err
	}
	got, err := client.Answer(c.Context, api.AnswerRequest{Pane: addr, Need: c.String("need"), Choice: c.Args().Get(1), From: "cli"})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.App.Writer, "codeman: answered %s with %d. %s\n", addr, got.Option, safetext.Line(got.Label))
	return err
}

// printAsk lists the options of the dialog a need shows, and how to
// answer it from a shell.
func printAsk(w io.Writer, addr string, n *respawn.Need) {
	if n.Ask == nil {
		return
	}
	fmt.Fprintf(w, "  asks      %s (need %s)\n", safetext.Line(n.Ask.Text), n.ID)
	for i, o := range n.Ask.Options {
		mark := " "
		if i == n.Ask.Selected {
			mark = ">"
		}
		fmt.Fprintf(w, "           %s %d. %s\n", mark, i+1, safetext.Line(o))
	}
	fmt.Fprintf(w, "            answer: codeman answer %s N --need %s\n", safetext.Line(addr), n.ID)
}
