package codex_test

import (
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/codex"
)

// Codex's own usage-limit and error rows start flush left with "■"; a
// reply that quotes them has them indented under its "• ", or after it,
// and is no limit and no error.
func TestClassify_QuotedErrorRows(t *testing.T) {
	s := loadScreen(t, "usage-limit-120col-dismissed")
	if f := codex.New().Classify(s); f.UsageLimit == "" {
		t.Fatalf("the real limit is not read: %+v", f)
	}
	for name, quote := range map[string][]string{
		"indented":     {"• The other session printed:", "", "  ■ You’ve hit your usage limit. Upgrade to Pro, or try again at 8:45 PM."},
		"after_bullet": {"• ■ You’ve hit your usage limit. Upgrade to Pro, or try again at 8:45 PM."},
		"api_error":    {"• It failed with:", "  ■ exceeded retry limit, last status: 429 Too Many Requests"},
	} {
		t.Run(name, func(t *testing.T) {
			q := s
			q.Lines = nil
			for _, row := range s.Lines {
				if strings.HasPrefix(row, "■") || strings.HasPrefix(row, "usage to purchase") {
					continue // the real limit's rows
				}
				if strings.HasPrefix(row, "› Ask Codex") {
					q.Lines = append(q.Lines, quote...)
					q.Lines = append(q.Lines, "")
				}
				q.Lines = append(q.Lines, row)
			}
			f := codex.New().Classify(q)
			if f.UsageLimit != "" || f.APIError != "" {
				t.Fatalf("a quote read as a failure: limit %q, error %q\n%s", f.UsageLimit, f.APIError, strings.Join(q.Lines, "\n"))
			}
			if _, ok := codex.New().FindUsageLimit(strings.Join(q.Lines, "\n"), time.Now()); ok {
				t.Fatal("FindUsageLimit took the quote for a limit")
			}
		})
	}
}
