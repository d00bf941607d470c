package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// guard is one row of the table: a guard, the test that must fail without
// it, and the mutation that removes it (Old becomes New inside Find, which
// occurs once in File).
type guard struct {
	Guard, Test, File, Find, Old, New string
	pos                               string // the row in the table, for errors
}

var guardFields = []string{"Guard", "Test", "File", "Find", "Old", "New"}

// readTable reads the rows of the slice literal assigned to variable name
// in the Go file at path. Every field must be a string literal, so that the
// table is data, not code.
func readTable(path, name string) ([]guard, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse table: %w", err)
	}
	lit := findSlice(f, name)
	if lit == nil {
		return nil, fmt.Errorf("read table %s: no variable %s assigned a slice literal", path, name)
	}
	var rows []guard
	for _, e := range lit.Elts {
		g, err := readRow(fset, e)
		if err != nil {
			return nil, err
		}
		rows = append(rows, g)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("read table %s: %s is empty", path, name)
	}
	return rows, nil
}

func findSlice(f *ast.File, name string) *ast.CompositeLit {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if n.Name != name || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.CompositeLit); ok {
					return lit
				}
			}
		}
	}
	return nil
}

func readRow(fset *token.FileSet, e ast.Expr) (guard, error) {
	g := guard{pos: fset.Position(e.Pos()).String()}
	row, ok := e.(*ast.CompositeLit)
	if !ok {
		return g, fmt.Errorf("%s: a row must be a composite literal", g.pos)
	}
	fields := map[string]*string{"Guard": &g.Guard, "Test": &g.Test, "File": &g.File, "Find": &g.Find, "Old": &g.Old, "New": &g.New}
	seen := map[string]bool{}
	for _, kv := range row.Elts {
		kv, ok := kv.(*ast.KeyValueExpr)
		if !ok {
			return g, fmt.Errorf("%s: name every field (%s)", g.pos, strings.Join(guardFields, ", "))
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil || fields[key.Name] == nil {
			return g, fmt.Errorf("%s: unknown field (want %s)", fset.Position(kv.Pos()), strings.Join(guardFields, ", "))
		}
		val, ok := kv.Value.(*ast.BasicLit)
		if !ok || val.Kind != token.STRING {
			return g, fmt.Errorf("%s: %s must be a string literal", fset.Position(kv.Pos()), key.Name)
		}
		s, err := strconv.Unquote(val.Value)
		if err != nil {
			return g, fmt.Errorf("%s: unquote %s: %w", fset.Position(kv.Pos()), key.Name, err)
		}
		*fields[key.Name] = s
		seen[key.Name] = true
	}
	for _, k := range guardFields {
		if !seen[k] && k != "New" {
			return g, fmt.Errorf("%s: field %s missing", g.pos, k)
		}
	}
	return g, nil
}

// check verifies the row against the module at root: Find occurs exactly
// once in File, Old exactly once in Find, and the mutation changes it. It
// returns File's content with the mutation applied.
func (g guard) check(root string) (original, mutant []byte, err error) {
	original, err = os.ReadFile(filepath.Join(root, filepath.FromSlash(g.File)))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: read guard file: %w", g.pos, err)
	}
	src := string(original)
	if n := strings.Count(src, g.Find); n != 1 {
		return nil, nil, fmt.Errorf("%s: %q occurs %d times in %s, want exactly once: update the table", g.pos, g.Find, n, g.File)
	}
	if n := strings.Count(g.Find, g.Old); n != 1 || g.Old == "" {
		return nil, nil, fmt.Errorf("%s: Old %q occurs %d times in Find, want exactly once", g.pos, g.Old, n)
	}
	if g.Old == g.New {
		return nil, nil, fmt.Errorf("%s: Old and New are the same", g.pos)
	}
	return original, []byte(strings.Replace(src, g.Find, strings.Replace(g.Find, g.Old, g.New, 1), 1)), nil
}
