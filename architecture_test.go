package canon

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fileUses returns, for each non-test file of the package in dir, the
// other files whose package-level names, methods or fields it uses (read
// with go/types, as the compiler resolves them).
func fileUses(t *testing.T, dir string) map[string]map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	// The imported packages are left empty: only the package's own
	// names matter here, and type-checking golang.org/x/net and x/text
	// from source would take seconds. The errors that leaves (their
	// names are unknown) are expected; the package's own resolve.
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{
		Importer: emptyImporter{},
		Error:    func(error) {},
	}
	pkg, _ := conf.Check("canon", fset, files, info)
	uses := map[string]map[string]bool{}
	for _, f := range files {
		uses[filepath.Base(fset.File(f.Pos()).Name())] = map[string]bool{}
	}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		// Package-level names, methods and fields; not locals.
		if v, ok := obj.(*types.Var); ok && !v.IsField() && obj.Parent() != pkg.Scope() {
			continue
		}
		if _, ok := obj.(*types.Label); ok {
			continue
		}
		if obj.Parent() != nil && obj.Parent() != pkg.Scope() && obj.Parent() != types.Universe {
			continue // a local constant, type or function literal's name
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from != to {
			uses[from][to] = true
		}
	}
	return uses
}

// emptyImporter imports every package as an empty one.
type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	name := path[strings.LastIndexByte(path, '/')+1:]
	p := types.NewPackage(path, name)
	p.MarkComplete()
	return p, nil
}

// TestArchitectureFiles holds the table of files in docs/architecture.md
// to the code: it lists every library file once, and each file uses only
// files below it in the table, so that no two files use each other,
// directly or through others.
func TestArchitectureFiles(t *testing.T) {
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	if i := strings.Index(section, "\n## The files\n"); i >= 0 {
		section = section[i:]
	} else {
		t.Fatal(`docs/architecture.md: no "## The files" section`)
	}
	if i := strings.Index(section[1:], "\n## "); i >= 0 {
		section = section[:i+1]
	}
	var order []string
	for _, line := range strings.Split(section, "\n") {
		if f, ok := strings.CutPrefix(line, "| "); ok {
			if name, _, ok := strings.Cut(f, " |"); ok && strings.HasSuffix(name, ".go") {
				order = append(order, name)
			}
		}
	}
	uses := fileUses(t, ".")
	for f := range uses {
		if !slices.Contains(order, f) {
			t.Errorf("docs/architecture.md: %s is not in the table of files", f)
		}
	}
	for i, f := range order {
		if _, ok := uses[f]; !ok {
			t.Errorf("docs/architecture.md: the table lists %s, which is no library file", f)
		}
		if slices.Contains(order[:i], f) {
			t.Errorf("docs/architecture.md: %s is listed twice", f)
		}
		for used := range uses[f] {
			if j := slices.Index(order, used); j >= 0 && j < i {
				t.Errorf("docs/architecture.md: %s uses %s, which the table lists above it", f, used)
			}
		}
	}
}
