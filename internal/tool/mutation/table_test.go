package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadTable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "table_test.go")
	write(t, path, "package p\n\nvar rows = []row{\n"+
		"\t{Guard: \"g\", Test: \"TestG/sub\", File: \"p/a.go\", Find: \"if ok {\\n\\t\\treturn\", Old: \"ok\", New: `false`},\n"+
		"\t{Guard: \"h\", Test: \"TestH\", File: \"p/a.go\", Find: \"x()\", Old: \"x()\"},\n}\n")
	rows, err := readTable(path, "rows")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Find != "if ok {\n\t\treturn" || rows[0].New != "false" || rows[1].New != "" {
		t.Fatalf("rows = %+v", rows)
	}
	if !strings.HasSuffix(rows[1].pos, "table_test.go:5:2") {
		t.Errorf("pos = %s, want the row's line", rows[1].pos)
	}

	for _, bad := range []struct{ src, want string }{
		{"var rows = []row{{Guard: \"g\" + \"h\", Test: \"T\", File: \"f\", Find: \"a\", Old: \"a\"}}", "Guard must be a string literal"},
		{"var rows = []row{{Guard: \"g\", File: \"f\", Find: \"a\", Old: \"a\"}}", "field Test missing"},
		{"var rows = []row{{\"g\", \"T\", \"f\", \"a\", \"a\", \"\"}}", "name every field"},
		{"var other = []row{}", "no variable rows"},
	} {
		write(t, path, "package p\n\n"+bad.src+"\n")
		if _, err := readTable(path, "rows"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("readTable(%s) = %v, want an error containing %q", bad.src, err, bad.want)
		}
	}
}

func TestGuardCheck(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "p", "a.go"), "package p\n\nfunc f(ok bool) bool {\n\tif ok {\n\t\treturn ok\n\t}\n\treturn ok\n}\n")
	g := guard{File: "p/a.go", Find: "if ok {", Old: "ok", New: "false", pos: "row"}
	_, mutant, err := g.check(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\tif false {\n\t\treturn ok\n"; !strings.Contains(string(mutant), want) {
		t.Fatalf("mutant:\n%s\nwant it to contain %q", mutant, want)
	}
	for _, bad := range []struct {
		g    guard
		want string
	}{
		{guard{File: "p/a.go", Find: "return ok", Old: "ok", pos: "row"}, "occurs 2 times in p/a.go, want exactly once"},
		{guard{File: "p/a.go", Find: "if !ok {", Old: "ok", pos: "row"}, "occurs 0 times"},
		{guard{File: "p/a.go", Find: "if ok {", Old: "nope", pos: "row"}, "Old \"nope\" occurs 0 times in Find"},
		{guard{File: "p/a.go", Find: "if ok {", Old: "ok", New: "ok", pos: "row"}, "Old and New are the same"},
		{guard{File: "p/b.go", Find: "x", Old: "x", pos: "row"}, "read guard file"},
	} {
		if _, _, err := bad.g.check(root); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("check(%+v) = %v, want an error containing %q", bad.g, err, bad.want)
		}
	}
}

func TestExactly(t *testing.T) {
	if got := exactly("TestA_b/c.d"); got != `^TestA_b$/^c\.d$` {
		t.Fatalf("exactly = %s", got)
	}
	args := withRun([]string{"-short", "-run", "x", "./p/"}, "y")
	if strings.Join(args, " ") != "-short -run y ./p/" {
		t.Fatalf("withRun = %v", args)
	}
}

func TestCopyModule(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	write(t, filepath.Join(src, "go.mod"), "module m\n")
	write(t, filepath.Join(src, "p", "a.go"), "package p\n")
	write(t, filepath.Join(src, ".git", "HEAD"), "ref\n")
	if err := copyModule(src, dst); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dst, "p", "a.go")); err != nil || string(b) != "package p\n" {
		t.Fatalf("p/a.go = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dst, ".git")); !os.IsNotExist(err) {
		t.Fatalf(".git copied: %v", err)
	}
	root, err := moduleRoot(filepath.Join(dst, "p"))
	if err != nil || root != dst {
		t.Fatalf("moduleRoot = %s, %v", root, err)
	}
}
