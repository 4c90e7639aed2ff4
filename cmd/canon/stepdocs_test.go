package main

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"
)

// TestStepDocsQuotes checks the docs of the steps, which -steps names and
// "go doc canon.StepName" prints (see -steps): a quoted URL or path in
// one ("/a/..;jsessionid=<id>/b") is code, and a comment that wraps it
// across two lines makes go doc print it with a space inside. So no
// quoted string of a Step's doc, as go doc prints it, holds both a "/"
// and a space.
func TestStepDocsQuotes(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "../../steps.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	quoted := regexp.MustCompile(`"[^"\n]*"`)
	steps := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Step" || len(v.Names) != 1 {
				continue
			}
			doc := v.Doc
			if doc == nil {
				doc = g.Doc
			}
			if doc == nil {
				continue
			}
			steps++
			var p comment.Parser
			var pr comment.Printer
			text := string(pr.Text(p.Parse(doc.Text())))
			// The paragraphs as go doc prints them, each on one line.
			text = strings.ReplaceAll(strings.ReplaceAll(text, "\n\n", "\x00"), "\n", " ")
			for _, q := range quoted.FindAllString(text, -1) {
				if strings.Contains(q, "/") && strings.Contains(q, " ") {
					t.Errorf("%s: go doc prints %s, a quoted path split across two comment lines", v.Names[0].Name, q)
				}
			}
		}
	}
	if steps < 30 {
		t.Errorf("%d Step constants documented in steps.go: not the steps", steps)
	}
}
