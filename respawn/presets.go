package respawn

import (
	"slices"
	"time"
)

// The built-in presets are the original controller's UI presets,
// offered as profiles: `--profile ralph-todo` works without a config file,
// and a [profile.ralph-todo] table in the file adjusts the preset.
//
// Each preset sets inter_step_delay, send_clear, send_init,
// auto_accept_prompts, duration, update_prompt and kickstart_prompt, and
// completion_confirm. The original's presets carried an idleTimeoutMs that
// only labelled them ("3s", "45s"): it is the silence each preset wants
// before a cycle, which here is completion_confirm. no_output_timeout is
// raised to completion_confirm + 20s when below, so the no-output fallback
// cannot fire before a completion line could be confirmed.
//
//	preset                idleTimeoutMs -> completion_confirm  inter_step_delay  duration
//	solo-work             3000             3s                  2s                60m
//	subagent-workflow     45000            45s                 3s                240m
//	team-lead             90000            1m30s               5s                480m
//	ralph-todo            8000             8s                  3s                480m
//	overnight-autonomous  10000            10s                 3s                480m
//
// All five send /clear and /init and accept plan menus.
var builtinPresets = map[string]func(*Config){
	"solo-work":            presetSoloWork,
	"subagent-workflow":    presetSubagentWorkflow,
	"team-lead":            presetTeamLead,
	"ralph-todo":           presetRalphTodo,
	"overnight-autonomous": presetOvernightAutonomous,
}

// presetNoOutputMargin is how far no_output_timeout stays above a preset's
// completion_confirm.
const presetNoOutputMargin = 20 * time.Second

// PresetNames returns the names of the built-in presets, sorted.
func PresetNames() []string {
	names := make([]string, 0, len(builtinPresets))
	for name := range builtinPresets {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// applyPresetTimings sets the keys every preset sets besides its prompts.
func applyPresetTimings(c *Config, confirm, interStep, duration time.Duration) {
	c.CompletionConfirm = confirm
	c.NoOutputTimeout = max(c.NoOutputTimeout, confirm+presetNoOutputMargin)
	c.InterStepDelay = interStep
	c.Duration = duration
	c.SendClear = true
	c.SendInit = true
	c.AutoAcceptPrompts = true
}

// presetSoloWork suits one person's project: short silences, an hour.
func presetSoloWork(c *Config) {
	applyPresetTimings(c, 3*time.Second, 2*time.Second, 60*time.Minute)
	c.UpdatePrompt = "Before the context is cleared, write a short progress note to CLAUDE.md: " +
		"what you finished since the last note, what is half done (with file names), " +
		"and the exact next step. Replace the previous note instead of appending, and keep it under 20 lines."
	c.KickstartPrompt = "Read the progress note in CLAUDE.md and continue where you left off: " +
		"take the next step it names and keep going until that piece of work is done and tested."
}

// presetSubagentWorkflow suits a main thread that delegates to subagents,
// which keep it silent for long stretches.
func presetSubagentWorkflow(c *Config) {
	applyPresetTimings(c, 45*time.Second, 3*time.Second, 240*time.Minute)
	c.UpdatePrompt = "Before the context is cleared, check every subagent you started: " +
		"which finished, which are still running, and what each one returned. " +
		"Write a summary to CLAUDE.md with the overall goal, the state of each delegated task, " +
		"results not yet merged, and what to delegate next."
	c.KickstartPrompt = "Read the subagent summary in CLAUDE.md and keep coordinating: " +
		"collect the results of finished subagents, merge and verify them, " +
		"then hand the next independent tasks to new subagents. Do small glue work yourself."
}

// presetTeamLead suits the lead of an agent team, which waits on
// teammates' messages for minutes at a time.
func presetTeamLead(c *Config) {
	applyPresetTimings(c, 90*time.Second, 5*time.Second, 480*time.Minute)
	c.UpdatePrompt = "Before the context is cleared, review the shared task list and each teammate's progress: " +
		"what was completed, what is in progress and by whom, what is blocked and why. " +
		"Record this in CLAUDE.md with the decisions you made and the tasks still unassigned."
	c.KickstartPrompt = "Read the team status in CLAUDE.md, then check your inbox and answer your teammates' messages. " +
		"Reassign blocked work, give unassigned tasks from the task list to idle teammates, " +
		"and review finished work before you mark it done."
}

// presetRalphTodo suits a Ralph loop over a task list in @fix_plan.md that
// ends with a completion promise.
func presetRalphTodo(c *Config) {
	applyPresetTimings(c, 8*time.Second, 3*time.Second, 480*time.Minute)
	c.UpdatePrompt = "Before the context is cleared, update @fix_plan.md: mark finished tasks as done, " +
		"add new tasks or bugs you found, and keep the list in priority order. " +
		"Then add a short summary of this iteration to CLAUDE.md: what changed, what you learned, and which task comes next."
	c.KickstartPrompt = "You are in a Ralph loop. Open @fix_plan.md and take the highest-priority task that is not done. " +
		"Implement it completely, run the tests, and mark it done in @fix_plan.md. Work on one task at a time. " +
		"When every task in @fix_plan.md is done and the tests pass, output <promise>COMPLETE</promise>."
}

// presetOvernightAutonomous suits a long unattended run where nobody
// answers until morning.
func presetOvernightAutonomous(c *Config) {
	applyPresetTimings(c, 10*time.Second, 3*time.Second, 480*time.Minute)
	c.UpdatePrompt = "Before the context is cleared, write progress notes to CLAUDE.md: what you accomplished, " +
		"the decisions you made and why, problems you could not solve, and the next steps in order. " +
		"No answers will come before morning, so make the notes complete enough to resume from without asking."
	c.KickstartPrompt = "Read your progress notes in CLAUDE.md and continue with the next step. " +
		"Work on your own: do not wait for answers, make reasonable decisions and note them in CLAUDE.md, " +
		"commit working changes in small steps, and keep the tests passing."
}
