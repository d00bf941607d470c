// Command codeman-hook is codeman's Claude Code hook handler: Claude Code
// runs it for every hook event it fires, with the event's JSON on stdin, and
// it drops one marker for the pane it runs in into codeman's spool dir
// (package hooks/spool). `codeman hooks install` writes it into the
// settings when it sits beside the codeman binary.
//
// It does what `codeman hook` does, in a program that links the marker
// protocol alone: Claude Code waits for it before and after every tool
// call, and a small binary starts several times faster than the whole CLI.
// Claude shows a hook's output to the user and reports a non-zero exit as
// a hook error, so it prints nothing and exits 0 whatever happens.
//
// Its first argument, when given, names the event for payloads that carry
// no name of their own: codeman's GitHub Copilot CLI hooks run
// `codeman-hook agentStop`, and its OpenCode plugin `codeman-hook
// session.idle`.
package main

import (
	"os"
	"time"

	"github.com/codeman-dev/codeman/hooks/spool"
)

func main() {
	now := time.Now()
	// A bug here must not turn into a stack trace on Claude's screen.
	defer func() { _ = recover() }()
	// The error only says why no marker was written (outside a pane,
	// inside an AI check, bad input); there is nobody to tell.
	event := ""
	if len(os.Args) > 1 {
		event = os.Args[1]
	}
	_, _ = spool.HandleEvent(os.Stdin, os.Getenv, now, event)
}
