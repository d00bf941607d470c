package tmux

import "testing"

func TestConn_SendRefusesLineBreaks(t *testing.T) {
	c := &conn{} // no process: the check comes before any write
	for _, line := range []string{"", "\n", "list-panes\n", "a\rb"} {
		if err := c.send(line, pendingCommand{}); err == nil {
			t.Errorf("send(%q) succeeded", line)
		}
	}
}
