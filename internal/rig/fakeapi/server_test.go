package fakeapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestServer_StreamText(t *testing.T) {
	api := fakeapi.New(t)
	api.Handle("hello there", fakeapi.Reply{Text: "Hi back."})

	resp := post(t, api.URL(), turnBody(true, "hello there"))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := readEvents(t, resp.Body)
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if got := names(events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	m := assemble(t, events)
	if m.Text != "Hi back." || m.StopReason != "end_turn" {
		t.Errorf("got text %q stop %q, want %q end_turn", m.Text, m.StopReason, "Hi back.")
	}
	if model := events[0].Data["message"].(map[string]any)["model"]; model != "claude-opus-5-5" {
		t.Errorf("message_start model %v, want the request's", model)
	}
}

func TestServer_StreamThinkingAndTool(t *testing.T) {
	api := fakeapi.New(t)
	api.Handle("list files", fakeapi.Reply{
		Thinking: "The user wants a listing.",
		Text:     "Listing them.",
		Tool:     &fakeapi.ToolCall{Name: "Bash", Input: map[string]any{"command": "echo hi && ls", "description": "Greet and list — ✓"}},
		Next:     &fakeapi.Reply{Text: "Listed."},
	})

	m := assemble(t, readEvents(t, post(t, api.URL(), turnBody(true, "please list files")).Body))
	if m.Thinking != "The user wants a listing." || m.Text != "Listing them." {
		t.Errorf("thinking %q text %q", m.Thinking, m.Text)
	}
	if m.ToolName != "Bash" || m.StopReason != "tool_use" || !strings.HasPrefix(m.ToolID, "toolu_fake_") {
		t.Errorf("tool %q id %q stop %q", m.ToolName, m.ToolID, m.StopReason)
	}
	if m.ToolInput["command"] != "echo hi && ls" || m.ToolInput["description"] != "Greet and list — ✓" {
		t.Errorf("tool input %v", m.ToolInput)
	}

	next := assemble(t, readEvents(t, post(t, api.URL(), continuationBody("please list files", m.ToolID)).Body))
	if next.Text != "Listed." || next.StopReason != "end_turn" {
		t.Errorf("continuation got %q %q, want the Next reply", next.Text, next.StopReason)
	}
	again := assemble(t, readEvents(t, post(t, api.URL(), continuationBody("please list files", m.ToolID)).Body))
	if again.Text != fakeapi.DefaultText {
		t.Errorf("second continuation got %q, want the default (Next answers once)", again.Text)
	}
}

func TestServer_JSONReply(t *testing.T) {
	api := fakeapi.New(t)
	api.Enqueue(fakeapi.Reply{Text: "plain", Tool: &fakeapi.ToolCall{Name: "ExitPlanMode"}})

	resp := post(t, api.URL(), turnBody(false, "anything"))
	var m struct {
		Type, Role, StopReason string
		Content                []struct {
			Type, Text, Name string
			Input            map[string]any
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if m.Type != "message" || m.Role != "assistant" || len(m.Content) != 2 {
		t.Fatalf("message %+v", m)
	}
	if m.Content[0].Text != "plain" || m.Content[1].Name != "ExitPlanMode" || m.Content[1].Input == nil {
		t.Errorf("content %+v", m.Content)
	}
}

func TestServer_TitleRequest(t *testing.T) {
	api := fakeapi.New(t)
	api.SetDefault(fakeapi.Reply{Status: 500})

	resp := post(t, api.URL(), titleBody())
	var m struct{ Content []struct{ Text string } }
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || len(m.Content) != 1 || m.Content[0].Text != fakeapi.TitleText {
		t.Fatalf("status %d content %+v, want %s", resp.StatusCode, m.Content, fakeapi.TitleText)
	}
	if reqs := api.Requests(); len(reqs) != 1 || !reqs[0].Title {
		t.Errorf("logged %+v, want one title request", reqs)
	}
}

func TestServer_Hello(t *testing.T) {
	api := fakeapi.New(t)
	req, _ := http.NewRequest(http.MethodHead, api.URL()+"/api/hello", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD /api/hello: %d", resp.StatusCode)
	}
	resp, err = http.Get(api.URL() + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /v1/models: %d, want 404", resp.StatusCode)
	}
}

func TestServer_ErrorReplies(t *testing.T) {
	tests := []struct {
		status   int
		wantType string
		wantMsg  string
	}{
		{429, "rate_limit_error", "per-minute rate limit (fake)"},
		{500, "api_error", "Internal server error (fake)"},
		{529, "overloaded_error", "Overloaded (fake)"},
		{401, "authentication_error", "invalid x-api-key (fake)"},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			api := fakeapi.New(t)
			api.Enqueue(fakeapi.Reply{Status: tt.status})
			resp := post(t, api.URL(), turnBody(true, "go"))
			var body struct {
				Type      string
				Error     struct{ Type, Message string }
				RequestID string `json:"request_id"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.status || body.Type != "error" || body.Error.Type != tt.wantType ||
				!strings.Contains(body.Error.Message, tt.wantMsg) || body.RequestID == "" {
				t.Errorf("got %d %+v", resp.StatusCode, body)
			}
			if got := api.Requests()[0].Status; got != tt.status {
				t.Errorf("logged status %d", got)
			}
		})
	}
}

func TestServer_RetryRepeatsError(t *testing.T) {
	api := fakeapi.New(t)
	api.Enqueue(fakeapi.Reply{Status: 529})

	// Claude Code retries with the identical body and a retry count of 0.
	first := post(t, api.URL(), turnBody(true, "overload me"))
	retry := post(t, api.URL(), turnBody(true, "overload me"))
	fresh := post(t, api.URL(), turnBody(true, "overload me again"))
	if first.StatusCode != 529 || retry.StatusCode != 529 {
		t.Errorf("first %d retry %d, want 529 for both", first.StatusCode, retry.StatusCode)
	}
	if fresh.StatusCode != 200 {
		t.Errorf("next turn %d, want 200", fresh.StatusCode)
	}
	if reqs := api.Requests(); reqs[0].Retry || !reqs[1].Retry || reqs[2].Retry {
		t.Errorf("logged retries %t %t %t, want only the second", reqs[0].Retry, reqs[1].Retry, reqs[2].Retry)
	}
}

func TestServer_UsageLimitHeaders(t *testing.T) {
	api := fakeapi.New(t)
	reset := time.Unix(1767225600, 0)
	api.Enqueue(fakeapi.Reply{Status: 429, UsageLimit: &fakeapi.UsageLimit{Claim: "seven_day", ResetAt: reset}})

	resp := post(t, api.URL(), turnBody(true, "limit"))
	h := resp.Header
	if resp.StatusCode != 429 || h.Get("anthropic-ratelimit-unified-status") != "rejected" ||
		h.Get("anthropic-ratelimit-unified-representative-claim") != "seven_day" ||
		h.Get("anthropic-ratelimit-unified-reset") != "1767225600" ||
		h.Get("anthropic-ratelimit-unified-7d-status") != "rejected" {
		t.Errorf("status %d headers %v", resp.StatusCode, h)
	}
}

func TestServer_MidStreamError(t *testing.T) {
	api := fakeapi.New(t)
	api.Enqueue(fakeapi.Reply{Text: "partial", MidStreamError: true})

	events := readEvents(t, post(t, api.URL(), turnBody(true, "go")).Body)
	want := []string{"message_start", "content_block_start", "content_block_delta", "error"}
	if got := names(events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	if typ := events[3].Data["error"].(map[string]any)["type"]; typ != "api_error" {
		t.Errorf("error type %v", typ)
	}
}

func TestServer_MatchesLastUserText(t *testing.T) {
	api := fakeapi.New(t)
	api.Handle("second", fakeapi.Reply{Text: "rule"})
	api.Enqueue(fakeapi.Reply{Text: "queued 1"}, fakeapi.Reply{Text: "queued 2"})

	// A failed turn's text stays in the message before the new text: only
	// the last block counts, so "second" here is not what was typed last.
	merged := turnBody(true, "third")
	merged["messages"] = []any{userMessage(textBlock("second"), textBlock("third")), systemMessage()}

	var got []string
	for _, body := range []map[string]any{turnBody(true, "first"), turnBody(true, "the second one"), merged, turnBody(true, "fourth")} {
		got = append(got, assemble(t, readEvents(t, post(t, api.URL(), body).Body)).Text)
	}
	want := []string{"queued 1", "rule", "queued 2", fakeapi.DefaultText}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replies %q, want %q", got, want)
	}
}

func TestServer_RequestLog(t *testing.T) {
	api := fakeapi.New(t)
	post(t, api.URL(), turnBody(true, "log me"))
	post(t, api.URL(), continuationBody("log me", "toolu_x"))

	reqs := api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests logged, want 2", len(reqs))
	}
	first, cont := reqs[0], reqs[1]
	if first.Path != "/v1/messages" || first.LastUserText != "log me" || first.Model != "claude-opus-5-5" ||
		!first.Stream || first.ToolResult || !first.HasTool("AskUserQuestion") || first.At.IsZero() {
		t.Errorf("first request %+v", first)
	}
	if !cont.ToolResult || !reflect.DeepEqual(cont.ToolUseIDs, []string{"toolu_x"}) {
		t.Errorf("continuation %+v", cont)
	}
	got, err := api.WaitForRequest(fakeapi.UserText("log me"), time.Second)
	if err != nil || got.At != first.At {
		t.Errorf("WaitForRequest = %+v, %v; want the first request", got, err)
	}
}

func TestServer_PlanFilePath(t *testing.T) {
	api := fakeapi.New(t)
	body := turnBody(true, "plan it")
	body["messages"] = append(body["messages"].([]any), map[string]any{"role": "system", "content": []any{textBlock(
		"Plan mode is active. No plan file exists yet. You should create your plan at /home/dev/.claude/plans/cozy-petting-rivest.md using the Write tool.")}})
	post(t, api.URL(), body)
	if got := api.Requests()[0].PlanFilePath(); got != "/home/dev/.claude/plans/cozy-petting-rivest.md" {
		t.Errorf("PlanFilePath() = %q", got)
	}
}

func TestServer_WaitForRequestTimesOut(t *testing.T) {
	api := fakeapi.New(t)
	if _, err := api.WaitForRequest(fakeapi.UserText("never"), time.Millisecond); err == nil {
		t.Error("WaitForRequest returned no error with no request")
	}
}

func TestServer_BadBody(t *testing.T) {
	api := fakeapi.New(t)
	resp := post(t, api.URL(), "not an object")
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "invalid_request_error") {
		t.Errorf("got %d %s", resp.StatusCode, body)
	}
}

func TestServer_BadToolInput(t *testing.T) {
	api := fakeapi.New(t)
	api.Enqueue(fakeapi.Reply{Text: "x", Tool: &fakeapi.ToolCall{Name: "Bash", Input: []string{"not", "an", "object"}}})
	resp := post(t, api.URL(), turnBody(true, "go"))
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 500 || !strings.Contains(string(body), "Bash input: not a JSON object") {
		t.Errorf("got %d %s", resp.StatusCode, body)
	}
}
