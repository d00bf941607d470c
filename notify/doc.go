// Package notify tells a person that a pane needs them. The controller
// raises a "needs you" hold on a pane (a question, a permission prompt, an
// elicitation, a menu codeman will not answer, stuck, auth, send-failed,
// error) and clears it when the pane goes on; the Notifier turns those
// raises and clears into messages on the configured channels.
//
// It owns the policy (Notifier, with its pure core), the channels that
// leave the machine's terminal (Command, Desktop, Webhook) and the
// Channel interface through which the daemon adds its own (the tmux
// one). It imports nothing of codeman but internal/childenv and
// internal/safetext, so that config can build its Options; it must never
// import daemon or config.
//
// Flow:
//
//	daemon ──Raise/Clear/Forget──> Notifier ──(core: notify_after, once per hold, renotify, rate limit)
//	                                  │ one clockwork timer for the earliest deadline
//	                                  └──> one worker per channel (bounded queue) ──Send──> command, desktop, url, tmux
//
// Raise, Clear and Forget never block: they update the core under a
// mutex and hand due messages to the workers' queues without waiting; a
// full queue drops the message for that channel and counts it. A
// channel's failures are logged and kept for Status, which doctor shows.
// Every Send, in a Notifier and in Test, has a bound on the Notifier's
// clock (a Bounded channel's own: the desktop's 10s, the command's
// timeout, the webhook's attempts and backoffs; 2m for others), after
// which it is canceled and fails with "no answer after" the bound.
//
// # Policy
//
// A hold notifies once it has lasted Policy.After (notify_after, 30s by
// default: a prompt answered at once raises nothing), then again every
// Policy.Renotify (30m) while it lasts, and, with Policy.Resolved, once
// when it ends, if it had notified. A raise of another kind on a held
// pane ends the old hold and starts a new one; a new reason of the same
// kind updates the hold's text and keeps its schedule. Clear ends a hold;
// Forget drops it without a word (the pane is gone).
//
// Once per hold holds across Notifiers: Handoff gives the Notifier that
// takes over after an edit of the config what was sent of each hold
// (Sent), and OnSent lets the daemon keep the same in its state dir for
// when it starts again. A hold of the same pane and kind raised within
// two minutes of the new Notifier's start goes on with its schedule
// instead of notifying as new.
//
// At most RateLimit
// messages (10 by default) go out per minute across all panes. A hold's
// first message over the limit waits: it goes out as soon as the limit
// allows, the longest waiting first, so that a pane that keeps asking
// and answering cannot keep a real prompt from a person. Re-notifications
// and resolved messages over the limit are dropped; a hold whose
// re-notification was dropped keeps its schedule. Both are counted, and
// logged once per burst.
//
// # Channels
//
// What a pane shows is hostile: every string it controls (the reason,
// the target, the kind, the session and window names, the working
// directory, the address) reaches every channel, in its message, title,
// headers, json fields and CODEMAN_* variables, as one line in which
// terminal escapes, bidi overrides and zero-width characters show as
// escapes (safetext.Line).
//
// command runs an argv without a shell, the message as its last argument,
// with CODEMAN_EVENT (raised, resolved or test), CODEMAN_PANE,
// CODEMAN_TARGET, CODEMAN_KIND, CODEMAN_REASON, CODEMAN_SESSION,
// CODEMAN_WINDOW and CODEMAN_CWD in its environment, and kills its process
// group when it outlasts its timeout.
//
// desktop shows a desktop notification: over the D-Bus session bus
// (org.freedesktop.Notifications) where there is one, with osascript on
// macOS. Desktop.Available says why it cannot, for doctor.
//
// url POSTs to a webhook. The default text format speaks ntfy: the body
// is the message text, and the Title, Priority and Tags headers carry the
// rest. With format "json" the body is one JSON object (the ntfy headers
// are still sent):
//
//	event         "raised", "resolved" or "test"
//	title         the one-line title, as in the Title header
//	message       the message text, the body of the text format
//	pane          the pane's canonical address ("" in a test)
//	target        its human name, such as "work:1.0 (%3)"
//	kind          question, permission, elicitation, menu, stuck, auth, send-failed or error
//	reason        the one-line reason the controller gave
//	session       the tmux session or screen session name
//	window        the window name
//	cwd           the pane's working directory
//	since         when the hold began (RFC 3339), "" in a test
//	at            when the message was made (RFC 3339)
//	held_seconds  how long the hold has lasted, whole seconds
//	count         1 for a hold's first message, 2 for its first re-notification, ...; 0 for resolved and test
//
// A request times out after WebhookOptions.Timeout (10s); network errors
// and the statuses 429 and 5xx are retried, up to Retries (3) times, after
// a backoff that starts at 1s and doubles up to MaxBackoff, 30s (a longer
// Retry-After is honoured up to that bound). Other statuses fail at once.
// Each retry is told to OnRetry first (codeman notify test prints it, a
// Notifier logs it).
// A redirect is never followed: it would re-post the message, with the
// URL in a Referer, to whatever host the server names, or turn the POST
// into a GET that loses it. It fails, naming its status and only the
// scheme and host it points to.
//
// # Secrets in URLs
//
// An ntfy topic is its own password, and webhook URLs carry tokens in
// their path, query or userinfo. Only the scheme and the host of the URL
// are ever shown: Redact turns https://user:pw@ntfy.sh/my-topic?auth=x
// into https://…@ntfy.sh/…?…, and every error and log line of a Webhook
// names its URL that way; codeman config print shows it as Mask does,
// with its shape and harmless query parameters but none of its secrets.
// Errors and the server's answers they quote are
// scrubbed of the URL's secrets (its Basic auth and a decoded ntfy ?auth=
// among them) and of any credentials at all: Authorization values, Basic
// and Bearer tokens, other URLs' userinfo, and the values of query
// parameters and JSON keys named like auth, token, key or secret.
package notify
