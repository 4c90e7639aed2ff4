package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeFirstRun replays the README's first commands: a build that
// names each package as it compiles it (the first run's minutes are not
// silent), then the command on two URLs, which must print the keys the
// README says it prints.
func TestReadmeFirstRun(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(readme)
	if block == nil {
		t.Fatal("README.md has no sh block")
	}
	lines := strings.Split(strings.TrimSpace(block[1]), "\n")
	if len(lines) < 2 || lines[0] != "go build -v -o canon ./cmd/canon" || !strings.HasPrefix(lines[1], "./canon ") {
		t.Fatalf("README.md's first commands are %q: want a build that names the packages it compiles (-v), then ./canon", lines)
	}
	out, err := exec.Command("bash", "-c", binary+strings.TrimPrefix(lines[1], "./canon")).Output()
	if err != nil {
		t.Fatalf("%s: %v", lines[1], err)
	}
	m := regexp.MustCompile("The second prints `([^`]+)` and\\s+`([^`]+)`").FindStringSubmatch(readme)
	if m == nil || string(out) != m[1]+"\n"+m[2]+"\n" {
		t.Errorf("%s prints %q; README.md says %q", lines[1], out, m)
	}
	if !regexp.MustCompile(`\d+ packages, in \d+ s on a shared 2-core machine`).MatchString(strings.Join(strings.Fields(readme), " ")) {
		t.Errorf("README.md does not say how long the first build takes, measured")
	}
}
