package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/codeman-dev/codeman/hooks"
	codexhooks "github.com/codeman-dev/codeman/hooks/codex"
)

// TestedCodexVersions are the OpenAI Codex CLI releases codeman is tested
// with, oldest first; the last is the one scripts/install-codex.sh pins.
var TestedCodexVersions = []string{"0.171.0"}

// checkCodex checks the Codex CLI on PATH against TestedCodexVersions and,
// when it is there, codeman's hooks in its hooks.json and whether its
// config.toml opens the model-switch menu at a usage limit. Codex is
// optional: without it only Codex panes are out of reach.
func (d *Doctor) checkCodex(ctx context.Context) []Check {
	newest := TestedCodexVersions[len(TestedCodexVersions)-1]
	install := "npm install -g @openai/codex@" + newest
	path, err := d.LookPath("codex")
	if err != nil {
		return []Check{{Name: "codex", Verdict: VerdictNote, Message: "the OpenAI Codex CLI (codex) is not on PATH: only Codex panes need it"}}
	}
	version := Check{Name: "codex", Verdict: VerdictOK}
	out, err := d.output(ctx, path, "--version")
	v, ok := codexVersion(out)
	switch {
	case err != nil:
		version.Verdict, version.Message, version.Fix = VerdictWarn, "version unknown: "+err.Error(), "check that "+path+" runs, or reinstall it: "+install
	case !ok:
		version.Verdict, version.Message, version.Fix = VerdictWarn, fmt.Sprintf("version unknown: %s --version printed %q", path, firstLine(out)), "reinstall it: "+install
	case slices.Contains(TestedCodexVersions, v):
		version.Message = fmt.Sprintf("Codex %s (%s), a tested version", v, path)
	default:
		version.Verdict = VerdictWarn
		version.Message = fmt.Sprintf("Codex %s (%s) is not a version codeman is tested with (%s): its screens may differ", v, path, strings.Join(TestedCodexVersions, ", "))
		version.Fix = "if codeman misreads a Codex pane (codeman explain shows what it reads), install " + newest + ": " + install
	}
	if d.CodexHooksStatus == nil {
		return []Check{version, {Name: "hooks (codex)", Verdict: VerdictNote, Message: "not checked"}}
	}
	st, err := d.CodexHooksStatus()
	checks := []Check{version, codexHooksCheck(st, err)}
	if err == nil && st.ModelNudge == codexhooks.NudgeShown {
		checks = append(checks, codexNudgeCheck(st.ConfigPath))
	}
	return checks
}

// codexNudgeCheck: with Codex's default config every usage limit opens a
// menu whose Enter switches the model, which codeman leaves to a person;
// Codex's own "never show again" writes the same setting.
func codexNudgeCheck(configPath string) Check {
	return Check{Name: "codex usage limits", Verdict: VerdictWarn,
		Message: "with Codex's default config every usage limit opens its model-switch menu (\"Approaching rate limits\"), " +
			"which codeman leaves to a person: an unattended Codex waits at every limit until someone answers it",
		Fix: fmt.Sprintf("turn the menu off: set %s = true in the [%s] table of %s",
			codexhooks.NoticeModelNudge, codexhooks.NoticeTable, configPath)}
}

// codexVersion reads what codex --version prints: "codex-cli 0.171.0".
func codexVersion(out string) (string, bool) {
	fields := strings.Fields(out)
	if len(fields) != 2 || fields[0] != "codex-cli" || versionParts(fields[1]) == nil {
		return "", false
	}
	return fields[1], true
}

// codexHooksCheck checks codeman's hooks in Codex's hooks.json and their
// trust in its config.toml, as read into st.
func codexHooksCheck(st codexhooks.StatusReport, err error) Check {
	const name, fix = "hooks (codex)", "codeman hooks install --agent codex"
	switch {
	case err != nil:
		return Check{Name: name, Verdict: VerdictError, Message: err.Error(), Fix: "fix the file it names; codeman hooks status --agent codex reads it again"}
	case len(st.Installed) == 0:
		return Check{Name: name, Verdict: VerdictWarn,
			Message: "not installed in " + st.SettingsPath + ": codeman reads Codex panes from the screen alone", Fix: fix}
	case len(st.Copies) > 0:
		return Check{Name: name, Verdict: VerdictWarn,
			Message: fmt.Sprintf("%d copies of codeman's hooks in %s run besides one of each (%s): Codex runs every one", len(st.Copies), st.SettingsPath, hooks.EntryList(st.Copies)),
			Fix:     fix + " (keeps one of each)"}
	case !st.UpToDate():
		var untrusted, disabled, lines []string
		for _, h := range st.Handlers {
			switch h.Trust {
			case codexhooks.TrustTrusted:
			case codexhooks.TrustDisabled:
				disabled = append(disabled, h.Event)
				if h.Line > 0 {
					lines = append(lines, fmt.Sprintf("%s:%d", st.ConfigPath, h.Line))
				}
			default:
				untrusted = append(untrusted, h.Event+" "+h.Trust)
			}
		}
		switch {
		case len(untrusted) > 0:
			return Check{Name: name, Verdict: VerdictWarn,
				Message: fmt.Sprintf("not trusted in %s (%s): Codex does not run them until a person trusts them", st.ConfigPath, strings.Join(untrusted, ", ")), Fix: fix}
		case len(disabled) > 0 && st.StatusReport.UpToDate():
			// install leaves enabled = false as it is: only the person can
			// tell their choice from a leftover.
			where := "the enabled = false of their [hooks.state] tables in " + st.ConfigPath
			if len(lines) == len(disabled) {
				where = "the enabled = false at " + strings.Join(lines, ", ")
			}
			return Check{Name: name, Verdict: VerdictWarn,
				Message: fmt.Sprintf("disabled in %s (%s): Codex never runs them, and codeman hooks install leaves that to you", st.ConfigPath, strings.Join(disabled, ", ")),
				Fix:     "remove " + where + ", or enable them in Codex's /hooks"}
		}
		return Check{Name: name, Verdict: VerdictWarn, Message: "out of date in " + st.SettingsPath, Fix: fix}
	}
	return Check{Name: name, Verdict: VerdictOK, Message: "installed in " + st.SettingsPath + " and trusted in " + st.ConfigPath}
}
