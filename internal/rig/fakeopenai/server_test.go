package fakeopenai_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
)

func TestServer_TextTurn(t *testing.T) {
	api := fakeopenai.New(t)
	api.Handle("hello", fakeopenai.Reply{Chunks: []fakeopenai.Chunk{{Text: "Hi "}, {Text: "there."}}})

	resp := post(t, api.BaseURL(), turnBody("hello codex"))
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	events := readEvents(t, resp.Body)
	want := []string{"response.created", "response.output_item.added", "response.output_text.delta",
		"response.output_text.delta", "response.output_item.done", "response.completed"}
	if got := names(events); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	r := assemble(t, events)
	if r.Deltas != "Hi there." || r.Text != "Hi there." || r.Status != "completed" || r.OutputTokens == 0 {
		t.Errorf("response %+v", r)
	}
	req := api.Requests()[0]
	if req.LastUserText != "hello codex" || req.Model != "gpt-5.5" || !req.Stream || req.ToolOutput || req.Title {
		t.Errorf("request %+v", req)
	}
	if !req.HasTool("exec_command") || !req.HasTool("apply_patch") || !req.HasTool("web_search") {
		t.Errorf("tools %v", req.Tools)
	}
}

func TestServer_ToolLoop(t *testing.T) {
	api := fakeopenai.New(t)
	api.Handle("clean", fakeopenai.Reply{
		Text: "Cleaning.",
		Tool: fakeopenai.EscalatedShell("rm -rf build", "Delete the build output?"),
		Next: &fakeopenai.Reply{Text: "Clean."},
	})

	r := assemble(t, readEvents(t, post(t, api.BaseURL(), turnBody("clean the build")).Body))
	if r.Text != "Cleaning." || r.CallType != "function_call" || r.CallName != "exec_command" || r.Status != "completed" {
		t.Fatalf("first response %+v", r)
	}
	var args map[string]string
	if err := json.Unmarshal([]byte(r.Arguments), &args); err != nil {
		t.Fatalf("arguments %q: %v", r.Arguments, err)
	}
	if args["cmd"] != "rm -rf build" || args["sandbox_permissions"] != "require_escalated" || args["justification"] != "Delete the build output?" {
		t.Errorf("arguments %v", args)
	}

	next := assemble(t, readEvents(t, post(t, api.BaseURL(), continuationBody("clean the build", r.CallID)).Body))
	if next.Text != "Clean." || next.CallID != "" {
		t.Errorf("continuation %+v", next)
	}
	req := api.Requests()[1]
	if !req.ToolOutput || !slices.Equal(req.CallIDs, []string{r.CallID}) {
		t.Errorf("continuation request %+v", req)
	}
	// The Next is used once: a later continuation of the same call gets
	// the default.
	again := assemble(t, readEvents(t, post(t, api.BaseURL(), continuationBody("clean the build", r.CallID)).Body))
	if again.Text != fakeopenai.DefaultText {
		t.Errorf("second continuation %+v", again)
	}
}

func TestServer_ApplyPatch(t *testing.T) {
	api := fakeopenai.New(t)
	patch := "*** Begin Patch\n*** Add File: AGENTS.md\n+# Repository Guidelines\n*** End Patch\n"
	api.Handle("/init", fakeopenai.Reply{Tool: fakeopenai.ApplyPatch(patch)})

	r := assemble(t, readEvents(t, post(t, api.BaseURL(), turnBody("run /init")).Body))
	if r.CallType != "custom_tool_call" || r.CallName != "apply_patch" || r.Input != patch || r.Arguments != "" {
		t.Errorf("response %+v", r)
	}
}

func TestServer_TitleRequest(t *testing.T) {
	api := fakeopenai.New(t)
	api.SetDefault(fakeopenai.Reply{Status: 500})

	r := assemble(t, readEvents(t, post(t, api.BaseURL(), titleBody("hello")).Body))
	if r.Text != fakeopenai.TitleText {
		t.Errorf("title answer %+v", r)
	}
	if !api.Requests()[0].Title {
		t.Error("not logged as the title request")
	}
}

func TestServer_ReplyOrder(t *testing.T) {
	api := fakeopenai.New(t)
	api.Enqueue(fakeopenai.Reply{Text: "first"}, fakeopenai.Reply{Text: "second"})
	api.Handle("rule", fakeopenai.Reply{Text: "by rule"})
	api.SetDefault(fakeopenai.Reply{Text: "default"})

	for _, tc := range []struct{ typed, want string }{
		{"a rule match", "by rule"},
		{"anything", "first"},
		{"anything else", "second"},
		{"and more", "default"},
	} {
		if r := assemble(t, readEvents(t, post(t, api.BaseURL(), turnBody(tc.typed)).Body)); r.Text != tc.want {
			t.Errorf("%q answered %q, want %q", tc.typed, r.Text, tc.want)
		}
	}
}

func TestServer_HTTPErrors(t *testing.T) {
	api := fakeopenai.New(t)
	api.Handle("crash", fakeopenai.Reply{Status: 500})
	api.Handle("busy", fakeopenai.Reply{Status: 503})
	api.Handle("slow down", fakeopenai.Reply{Status: 429, ErrorMessage: "Rate limit reached (test)"})

	for _, tc := range []struct {
		typed, typ, code string
		status           int
	}{
		{"crash", "server_error", "", 500},
		{"busy", "service_unavailable_error", "server_is_overloaded", 503},
		{"slow down", "requests", "rate_limit_exceeded", 429},
	} {
		resp := post(t, api.BaseURL(), turnBody(tc.typed))
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.typed, resp.StatusCode, tc.status)
		}
		e := decodeError(t, resp)
		if e["type"] != tc.typ || (tc.code != "" && e["code"] != tc.code) || e["message"] == "" {
			t.Errorf("%s: error %v", tc.typed, e)
		}
		if resp.Header.Get("x-request-id") == "" {
			t.Errorf("%s: no x-request-id", tc.typed)
		}
	}
	if got := api.Requests()[2].Status; got != 429 {
		t.Errorf("logged status %d", got)
	}
}

func TestServer_UsageLimit(t *testing.T) {
	api := fakeopenai.New(t)
	reset := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	api.Handle("five hour", fakeopenai.Reply{Status: 429, UsageLimit: &fakeopenai.UsageLimit{ResetAt: reset}})
	api.Handle("weekly", fakeopenai.Reply{Status: 429, UsageLimit: &fakeopenai.UsageLimit{ResetAt: reset, Weekly: true, PlanType: "pro"}})

	resp := post(t, api.BaseURL(), turnBody("five hour"))
	e := decodeError(t, resp)
	if e["type"] != "usage_limit_reached" || e["plan_type"] != "plus" || e["resets_at"] != float64(reset.Unix()) {
		t.Errorf("error %v", e)
	}
	h := resp.Header
	if h.Get("x-codex-primary-used-percent") != "100" || h.Get("x-codex-primary-window-minutes") != "300" ||
		h.Get("x-codex-primary-reset-at") != strconv.FormatInt(reset.Unix(), 10) || h.Get("x-codex-secondary-used-percent") == "100" {
		t.Errorf("headers %v", h)
	}

	resp = post(t, api.BaseURL(), turnBody("weekly"))
	e = decodeError(t, resp)
	if e["plan_type"] != "pro" {
		t.Errorf("weekly error %v", e)
	}
	if h := resp.Header; h.Get("x-codex-secondary-used-percent") != "100" || h.Get("x-codex-secondary-reset-at") != strconv.FormatInt(reset.Unix(), 10) ||
		h.Get("x-codex-secondary-window-minutes") != "10080" {
		t.Errorf("weekly headers %v", h)
	}
}

func TestServer_Failed(t *testing.T) {
	api := fakeopenai.New(t)
	api.Handle("drop", fakeopenai.Reply{Text: "partial", Failed: &fakeopenai.Failure{Code: "server_error", Message: "boom"}})

	events := readEvents(t, post(t, api.BaseURL(), turnBody("drop it")).Body)
	if last := events[len(events)-1]; last.Name != "response.failed" {
		t.Fatalf("last event %s", last.Name)
	}
	if r := assemble(t, events); r.Text != "partial" || r.Status != "failed" || r.ErrorCode != "server_error" {
		t.Errorf("response %+v", r)
	}
}

// A retry has the same JSON with its keys in another order; it gets the
// same error even when the script would answer a fresh turn otherwise.
func TestServer_RetryRepeatsError(t *testing.T) {
	api := fakeopenai.New(t)
	api.Enqueue(fakeopenai.Reply{Status: 500}, fakeopenai.Reply{Text: "fresh"})

	first := []byte(`{"model":"gpt-5.5","stream":true,"client_metadata":{"a":"1","b":"2"},"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}]}`)
	retry := []byte(`{"model":"gpt-5.5","stream":true,"client_metadata":{"b":"2","a":"1"},"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}]}`)
	if resp := postRaw(t, api.BaseURL(), first); resp.StatusCode != 500 {
		t.Fatalf("first status %d", resp.StatusCode)
	}
	if resp := postRaw(t, api.BaseURL(), retry); resp.StatusCode != 500 {
		t.Fatalf("retry status %d", resp.StatusCode)
	}
	reqs := api.Requests()
	if reqs[0].Retry || !reqs[1].Retry {
		t.Errorf("retry flags %t %t", reqs[0].Retry, reqs[1].Retry)
	}
	if r := assemble(t, readEvents(t, post(t, api.BaseURL(), turnBody("go on")).Body)); r.Text != "fresh" {
		t.Errorf("next turn %+v", r)
	}
}

func TestServer_BadArgumentsAnswered(t *testing.T) {
	api := fakeopenai.New(t)
	api.Handle("bad", fakeopenai.Reply{Tool: &fakeopenai.ToolCall{Name: "exec_command", Arguments: []string{"not", "an", "object"}}})

	resp := post(t, api.BaseURL(), turnBody("bad call"))
	if e := decodeError(t, resp); resp.StatusCode != 400 || !strings.Contains(e["message"].(string), "not a JSON object") {
		t.Errorf("status %d error %v", resp.StatusCode, e)
	}
}

func TestServer_NotFoundAndBadBodyLogged(t *testing.T) {
	api := fakeopenai.New(t)
	resp, err := http.Get(api.BaseURL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("status %d", resp.StatusCode)
	}
	if resp := postRaw(t, api.BaseURL(), []byte("{")); resp.StatusCode != 400 {
		t.Errorf("bad body status %d", resp.StatusCode)
	}
	reqs := api.Requests()
	if len(reqs) != 2 || reqs[0].Path != "/v1/models" || reqs[0].Status != 404 || reqs[1].Status != 400 {
		t.Errorf("log %+v", reqs)
	}
}

func TestServer_WaitForRequest(t *testing.T) {
	api := fakeopenai.New(t)
	done := make(chan fakeopenai.Request, 1)
	go func() {
		req, err := api.WaitForRequest(fakeopenai.UserTurn("later"), 10*time.Second)
		if err != nil {
			t.Error(err)
		}
		done <- req
	}()
	post(t, api.BaseURL(), titleBody("later"))
	post(t, api.BaseURL(), turnBody("later on"))
	if req := <-done; req.LastUserText != "later on" || req.Title {
		t.Errorf("got %+v", req)
	}
}

func decodeError(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal(data, &body); err != nil || body.Error == nil {
		t.Fatalf("error body %q: %v", data, err)
	}
	return body.Error
}

// response.completed lists the turn's output items again, as the real
// API does: a client may take the answer from there alone.
func TestServer_CompletedListsOutput(t *testing.T) {
	api := fakeopenai.New(t)
	api.Handle("clean", fakeopenai.Reply{Text: "Cleaning.", Tool: fakeopenai.Shell("rm -rf build")})
	events := readEvents(t, post(t, api.BaseURL(), turnBody("clean the build")).Body)
	last := events[len(events)-1]
	if last.Name != "response.completed" {
		t.Fatalf("last event %s", last.Name)
	}
	output, _ := last.Data["response"].(map[string]any)["output"].([]any)
	var types []string
	for _, o := range output {
		types = append(types, o.(map[string]any)["type"].(string))
	}
	if !slices.Equal(types, []string{"message", "function_call"}) {
		t.Fatalf("completed output %v, want the message and the call", output)
	}
	content := output[0].(map[string]any)["content"].([]any)[0].(map[string]any)
	if content["text"] != "Cleaning." {
		t.Errorf("message %v", content)
	}
}
