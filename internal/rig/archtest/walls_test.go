package archtest

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/codeman-dev/codeman"

// rig reports whether path is a package that exists for tests and
// development only, one under internal/rig/ (the test rigs and suites) or
// internal/tool/ (the development commands): none may be linked into a
// program codeman ships.
func rig(path string) bool { return under(path, "internal/rig") || under(path, "internal/tool") }

// binaries are the programs codeman ships.
var binaries = []string{"cmd/codeman", "cmd/codeman-hook"}

// pkg is what `go list` says of one of the module's packages, with the
// module's prefix cut from every path.
type pkg struct {
	Path    string   // "agents/codex"
	Imports []string // the module's packages it imports, not its tests
	Deps    []string // every package of the module it links
}

// packages lists the module's packages (their code, not their tests).
func packages(t *testing.T) map[string]pkg {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("skipping: the go command is not installed")
	}
	cmd := exec.Command(goTool, "list", "-json", module+"/...")
	cmd.Dir = root(t)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	all := map[string]pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath    string
			Imports, Deps []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		all[local(p.ImportPath)] = pkg{Path: local(p.ImportPath), Imports: ours(p.Imports), Deps: ours(p.Deps)}
	}
	return all
}

// root is the module's directory: three up from this package's.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func local(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}

// ours keeps the module's packages of paths, cut to their local names.
func ours(paths []string) []string {
	var kept []string
	for _, p := range paths {
		if p == module || strings.HasPrefix(p, module+"/") {
			kept = append(kept, local(p))
		}
	}
	return kept
}

// under reports whether path is dir or a package below it.
func under(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

// The controller core knows no agent, no backend, no hooks and no config
// file: it declares the interfaces they implement.
func TestWalls_CoreImportsNothingOfCodemans(t *testing.T) {
	if imports := packages(t)["respawn"].Imports; len(imports) > 0 {
		t.Errorf("respawn imports %v; the core imports none of codeman's packages", imports)
	}
}

// tmux and screen are backends side by side: neither imports the other,
// nor anything that hosts them.
func TestWalls_BackendsStandAlone(t *testing.T) {
	all := packages(t)
	for _, backend := range []string{"tmux", "screen"} {
		for _, imp := range all[backend].Imports {
			for _, above := range []string{"tmux", "screen", "daemon", "hooks", "config", "cmd", "api", "dash", "doctor", "demo"} {
				if under(imp, above) && imp != backend {
					t.Errorf("%s imports %s", backend, imp)
				}
			}
		}
	}
}

// The daemon's clients reach it through api, its wire types and client,
// and link no daemon: the dashboard and doctor talk to a running one,
// the demo drives a controller of its own, and api is what the daemon
// serves, not what serves it.
func TestWalls_ClientsLinkNoDaemon(t *testing.T) {
	all := packages(t)
	for _, client := range []string{"api", "dash", "doctor", "demo"} {
		p, ok := all[client]
		if !ok {
			t.Fatalf("no package %s", client)
		}
		for _, dep := range p.Deps {
			if under(dep, "daemon") {
				t.Errorf("%s links %s; a client of the daemon reaches it through api", client, dep)
			}
		}
	}
}

// Every fact of an agent reaches the commands, the daemon and its
// clients through the registry (package agents): none of them imports an
// agent's home (agents/claude, agents/codex and what they hold), so that
// a new agent is one registry entry, not a branch in each. The AI check
// runner (agents/aicheck) is shared machinery. config is the one reader
// of a home: [[pattern]] extends Claude Code's pattern table, which
// compiles the patterns and names their kinds.
func TestWalls_AgentsOnlyThroughTheRegistry(t *testing.T) {
	all := packages(t)
	for path, p := range all {
		if under(path, "agents") || path == "config" || rig(path) {
			continue
		}
		for _, imp := range p.Imports {
			if under(imp, "agents") && imp != "agents" && !under(imp, "agents/aicheck") {
				t.Errorf("%s imports %s; it reaches an agent through the registry, package agents", path, imp)
			}
		}
	}
}

// config reads the file into the settings of the packages below it
// (respawn's Config, notify's Options): it links nothing of what reads
// it, the daemon, its clients or the CLI.
func TestWalls_ConfigLinksNothingAbove(t *testing.T) {
	all := packages(t)
	for _, dep := range all["config"].Deps {
		for _, above := range []string{"daemon", "api", "dash", "doctor", "demo", "cmd"} {
			if under(dep, above) {
				t.Errorf("config links %s, a package of %s/, which is above it", dep, above)
			}
		}
	}
}

// folder is the top-level folder a package lives in, the unit the folder
// graph is drawn between: respawn/codex is respawn's, hooks/spool hooks'.
// Each package under internal/ is a folder of its own, internal/rig/e2e
// as much as internal/proc: internal/ is a fence around helpers, not one
// part of codeman.
func folder(path string) string {
	first, rest, _ := strings.Cut(path, "/")
	if first != "internal" {
		return first
	}
	second, rest, _ := strings.Cut(rest, "/")
	if second == "rig" || second == "tool" {
		third, _, _ := strings.Cut(rest, "/")
		return first + "/" + second + "/" + third
	}
	return first + "/" + second
}

// The folders import one another one way only: when one folder's
// package imports another folder's, no package of the other imports back
// into the first, however far round. An arrow that runs back up (config
// importing a package under daemon/, which imports config) ties two
// parts of codeman into one.
func TestWalls_FolderGraphRunsOneWay(t *testing.T) {
	all := packages(t)
	// why[a][b] is a package import that makes folder a import folder b.
	why := map[string]map[string]string{}
	for path, p := range all {
		for _, imp := range p.Imports {
			a, b := folder(path), folder(imp)
			if a == b {
				continue
			}
			if why[a] == nil {
				why[a] = map[string]string{}
			}
			if _, ok := why[a][b]; !ok || path+" -> "+imp < why[a][b] {
				why[a][b] = path + " -> " + imp
			}
		}
	}
	for _, a := range slices.Sorted(maps.Keys(why)) {
		for _, b := range slices.Sorted(maps.Keys(why[a])) {
			if back := pathBetween(why, b, a); back != nil {
				var steps []string
				for i := 0; i+1 < len(back); i++ {
					steps = append(steps, why[back[i]][back[i+1]])
				}
				t.Errorf("folder %s imports %s (%s), and %s imports back into %s: %s",
					a, b, why[a][b], b, a, strings.Join(steps, ", "))
			}
		}
	}
}

// pathBetween returns the folders of a shortest way from one folder to
// another along the graph's arrows, both ends included; nil when there is
// none.
func pathBetween(graph map[string]map[string]string, from, to string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		if at == to {
			var way []string
			for f := to; f != ""; f = prev[f] {
				way = append([]string{f}, way...)
			}
			return way
		}
		for _, next := range slices.Sorted(maps.Keys(graph[at])) {
			if _, seen := prev[next]; !seen {
				prev[next] = at
				queue = append(queue, next)
			}
		}
	}
	return nil
}

// No test rig is linked into a program codeman ships, and the hook
// handler, which an agent waits for on every tool call, links only the
// spool.
func TestWalls_BinariesLinkNoRig(t *testing.T) {
	all := packages(t)
	for _, bin := range binaries {
		p, ok := all[bin]
		if !ok {
			t.Fatalf("no package %s", bin)
		}
		for _, dep := range p.Deps {
			if rig(dep) {
				t.Errorf("%s links the test rig %s", bin, dep)
			}
		}
	}
	if deps := all["cmd/codeman-hook"].Deps; !slices.Equal(deps, []string{"hooks/spool"}) {
		t.Errorf("cmd/codeman-hook links %v; want hooks/spool alone", deps)
	}
}

// Every package but the rigs has a row in docs/ARCHITECTURE.md's package
// table, and the row's last column names exactly what it imports.
func TestArchitectureTable_SaysWhatPackagesImport(t *testing.T) {
	all := packages(t)
	table := packageTable(t, filepath.Join(root(t), "docs", "ARCHITECTURE.md"))
	for path, p := range all {
		if rig(path) || path == "scripts" {
			continue
		}
		row, ok := table[path]
		if !ok {
			t.Errorf("docs/ARCHITECTURE.md has no row for package %s (it imports %s)", path, names(p.Imports))
			continue
		}
		if want := names(p.Imports); row != want {
			t.Errorf("docs/ARCHITECTURE.md says %s imports %q; it imports %q", path, row, want)
		}
	}
	for path := range table {
		if _, ok := all[path]; !ok {
			t.Errorf("docs/ARCHITECTURE.md has a row for %s, which is no package", path)
		}
	}
}

// names is the table's spelling of a list of imports.
func names(imports []string) string {
	if len(imports) == 0 {
		return "none"
	}
	sorted := slices.Sorted(slices.Values(imports))
	return strings.Join(sorted, ", ")
}

// packageTable reads the rows of the table under "## Packages": the
// package in the first column (`name`), the imports in the last, as a
// sorted, comma-separated list.
func packageTable(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = strings.HasPrefix(line, "## Packages")
		case in && strings.HasPrefix(line, "| `"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			name := strings.Trim(strings.TrimSpace(cells[0]), "`")
			if strings.Contains(name, "...") {
				continue // a family of rigs, not one package
			}
			var imports []string
			for imp := range strings.SplitSeq(cells[len(cells)-1], ",") {
				if imp = strings.Trim(strings.TrimSpace(imp), "`"); imp != "" && imp != "none" {
					imports = append(imports, imp)
				}
			}
			rows[name] = names(imports)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no package table under a \"## Packages\" heading", path)
	}
	return rows
}
