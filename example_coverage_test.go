package canon

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExamplesCoverAPI holds the package to a runnable example for each
// thing pkg.go.dev documents on its own: the package (func Example),
// every exported function, every exported type and every function go/doc
// files under a type (its constructors: Parse under Ref, ParseStep under
// Step). It reads the package as go/doc does, with the example files, so
// an example counts only where pkg.go.dev shows it: ExampleT or
// ExampleT_suffix for a type, ExampleF for a function. It also fails on
// an example that go/doc attaches to nothing (one named after a constant,
// say), which pkg.go.dev would not show at all.
//
// Constants and variables are excused: go/doc attaches no example to
// them (an example named after one is attached to nothing, see above).
// The typed ones are shown under their type, whose example this test
// requires; the test logs the others. Methods are excused too, as their
// type's example is required; the test logs those without one.
func TestExamplesCoverAPI(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	pkg, err := doc.NewFromFiles(fset, files, "github.com/seed15588f71/canon")
	if err != nil {
		t.Fatal(err)
	}

	attached := map[string]bool{} // the examples go/doc attached, by function name
	attach := func(exs []*doc.Example) int {
		for _, ex := range exs {
			attached["Example"+ex.Name] = true
			if ex.Output == "" && !ex.EmptyOutput {
				t.Errorf("Example%s has no // Output: comment: go test compiles it but does not run it", ex.Name)
			}
		}
		return len(exs)
	}
	var missing, methodsWithout []string
	if attach(pkg.Examples) == 0 || !slices.ContainsFunc(pkg.Examples, func(ex *doc.Example) bool { return ex.Name == "" }) {
		missing = append(missing, "the package (func Example)")
	}
	for _, f := range pkg.Funcs {
		if attach(f.Examples) == 0 {
			missing = append(missing, "func "+f.Name)
		}
	}
	nTypes, nFuncs := 0, len(pkg.Funcs)
	for _, ty := range pkg.Types {
		nTypes++
		if attach(ty.Examples) == 0 {
			missing = append(missing, "type "+ty.Name)
		}
		for _, f := range ty.Funcs {
			nFuncs++
			if attach(f.Examples) == 0 {
				missing = append(missing, "func "+f.Name)
			}
		}
		for _, m := range ty.Methods {
			if attach(m.Examples) == 0 {
				methodsWithout = append(methodsWithout, ty.Name+"."+m.Name)
			}
		}
	}
	for _, name := range missing {
		t.Errorf("%s has no runnable example: write one (ExampleT or ExampleT_suffix for a type T, ExampleF for a function F, func Example for the package) with an // Output: comment", name)
	}

	for _, ex := range doc.Examples(files...) {
		if name := "Example" + ex.Name; !attached[name] {
			t.Errorf("%s is attached to no exported identifier by go/doc, so pkg.go.dev does not show it: name it ExampleT_suffix, ExampleT_M or ExampleF after what it shows", name)
		}
	}

	var untyped []string
	for _, vs := range [][]*doc.Value{pkg.Consts, pkg.Vars} {
		for _, v := range vs {
			untyped = append(untyped, v.Names...)
		}
	}
	t.Logf("%d functions and %d types, each with an example, and the package; excused: methods without an example (%s), and constants and variables, of which these are under no type: %s",
		nFuncs, nTypes, strings.Join(methodsWithout, ", "), strings.Join(untyped, ", "))
}
