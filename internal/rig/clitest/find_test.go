package clitest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

func TestCLI_Find(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin", "cli")
	if err := os.MkdirAll(filepath.Dir(bin), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	cli := clitest.CLI{Env: "CLITEST_CLI", Dir: dir, Binaries: []string{"missing/cli", "bin/cli"}}

	t.Setenv("CLITEST_CLI", "")
	if p, ok := cli.Find(); !ok || p != bin {
		t.Errorf("Find = %q, %t; want the second candidate %q", p, ok, bin)
	}
	t.Setenv("CLITEST_CLI", filepath.Join(dir, "bin"))
	if p, ok := cli.Find(); ok || p != filepath.Join(dir, "bin") {
		t.Errorf("Find = %q, %t; want the variable's dir, not executable", p, ok)
	}
}

func TestCacheDir(t *testing.T) {
	t.Setenv("CLITEST_DIR", "")
	t.Setenv("XDG_CACHE_HOME", "/cache")
	if got := clitest.CacheDir("CLITEST_DIR", "codeman-e2e"); got != "/cache/codeman-e2e" {
		t.Errorf("CacheDir = %q", got)
	}
	t.Setenv("CLITEST_DIR", "/opt/cli")
	if got := clitest.CacheDir("CLITEST_DIR", "codeman-e2e"); got != "/opt/cli" {
		t.Errorf("CacheDir with the variable = %q", got)
	}
}
