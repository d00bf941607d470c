package codexhooks

import "github.com/codeman-dev/codeman/hooks"

// Entries are the hooks codeman installs into Codex's hooks.json, in this
// order, each in a group of its own without a matcher (Codex's matcher is
// a regex on the tool name; no matcher runs for every tool). Their
// timeouts are written out because the trusted hash covers them; Codex
// clamps SessionEnd's to at most 3 s. The handler gives up after 2 s.
//
// What each tells the controller (package spool, Marker.Kind): a turn
// starts (UserPromptSubmit) and goes on (PreModelRequest, PreToolUse,
// PostToolUse), asks for approval (PermissionRequest), ends (Stop) or is
// lost to an API error or usage limit (a failed PostModelRequest: Codex
// runs no Stop then), a session starts after /clear (SessionStart), a
// person interrupts the turn or declines an approval (Interrupt) and Codex
// exits (SessionEnd). PreCompact and PostCompact carry no signal and are
// left out.
var Entries = []hooks.Entry{
	{Event: "SessionStart", Timeout: hooks.HookTimeout},
	{Event: "UserPromptSubmit", Timeout: hooks.HookTimeout},
	{Event: "PreToolUse", Timeout: hooks.HookTimeout},
	{Event: "PermissionRequest", Timeout: hooks.HookTimeout},
	{Event: "PostToolUse", Timeout: hooks.HookTimeout},
	{Event: "Stop", Timeout: hooks.HookTimeout},
	{Event: "PreModelRequest", Timeout: hooks.HookTimeout},
	{Event: "PostModelRequest", Timeout: hooks.HookTimeout},
	{Event: "SessionEnd", Timeout: maxShortTimeout},
	{Event: "Interrupt", Timeout: maxShortTimeout},
}
