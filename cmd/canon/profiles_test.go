package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// libraryProfiles are the library's predefined profiles; each must be in
// the command's profiles list under the name its String gives.
var libraryProfiles = []canon.Profile{
	canon.WebCapture, canon.RFC3986, canon.IRI, canon.POWDER, canon.WHATWG,
	canon.Crawler, canon.Archive, canon.Aggressive, canon.SafeBrowsing,
}

// TestProfileNames checks the command's one list of profiles against the
// library: every name is one canon.LookupProfile knows, once, and every
// predefined profile has its name there; and that each is usable with
// -p, in either letter case.
func TestProfileNames(t *testing.T) {
	seen := map[string]bool{}
	for _, np := range profiles {
		if seen[np.name] {
			t.Errorf("profile %s listed twice", np.name)
		}
		seen[np.name] = true
		if _, ok := canon.LookupProfile(np.name); !ok {
			t.Errorf("profile %s: canon.LookupProfile does not know it", np.name)
		}
		if np.name != strings.ToLower(np.name) || np.about == "" {
			t.Errorf("profile %q: want a lowercase name and a description", np.name)
		}
	}
	for _, p := range libraryProfiles {
		name, _, _ := strings.Cut(p.String(), "(")
		name = strings.ToLower(name)
		if lp, ok := canon.LookupProfile(name); !seen[name] || !ok || lp != p {
			t.Errorf("predefined profile %s: not in the command's list of profiles", p)
		}
	}
	if len(profiles) != len(libraryProfiles) {
		t.Errorf("%d profiles listed, the library has %d", len(profiles), len(libraryProfiles))
	}
	for _, np := range profiles {
		for _, name := range []string{np.name, strings.ToUpper(np.name)} {
			out, errOut, code := canonCmd(t, "", "-p", name, "HTTP://Example.COM/")
			if code != 0 || errOut != "" || !strings.HasPrefix(out, "http://example.com/") {
				t.Errorf("canon -p %s: %q, stderr %q, exit %d", name, out, errOut, code)
			}
		}
	}
	want := "canon: unknown profile \"nope\": want rfc3986, iri, webcapture, powder, whatwg, crawler, archive, aggressive or safebrowsing (see -list-profiles)\n"
	if _, errOut, code := canonCmd(t, "", "-p", "nope", "http://h/"); code != exitUsage || errOut != want {
		t.Errorf("canon -p nope: exit %d, stderr %q; want exit 2, %q", code, errOut, want)
	}
}

// TestProfileLists checks that every place that lists the profiles has
// each: the -p help, the usage's list, -list-profiles (with its steps,
// as Profile.String names them) and the package documentation.
func TestProfileLists(t *testing.T) {
	help, _, _ := canonCmd(t, "", "-h")
	list, _, code := canonCmd(t, "", "-list-profiles")
	if code != 0 {
		t.Fatalf("canon -list-profiles: exit %d", code)
	}
	doc, err := exec.Command("go", "doc", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go doc: %v\n%s", err, doc)
	}
	pHelp := regexp.MustCompile(`(?m)^  -p(rofile)? name\n.*$`).FindAllString(help, -1)
	if len(pHelp) != 2 {
		t.Fatalf("canon -h: the -p and -profile flags not found:\n%s", help)
	}
	for _, np := range profiles {
		p, _ := canon.LookupProfile(np.name)
		if !strings.Contains(pHelp[1], " "+np.name) {
			t.Errorf("the -profile help %q does not name %s", pHelp[1], np.name)
		}
		if !regexp.MustCompile(`(?m)^  ` + np.name + ` +` + regexp.QuoteMeta(np.about) + `$`).MatchString(help) {
			t.Errorf("canon -h: the profiles list lacks %s", np.name)
		}
		line := np.name + strings.Repeat(" ", max(12-len(np.name), 1)) + strings.ReplaceAll(p.String(), "|", " ") + "\n"
		if !strings.Contains(list, line) {
			t.Errorf("canon -list-profiles lacks %q", line)
		}
		if !regexp.MustCompile(`\b` + np.name + `\s+\(`).Match(doc) {
			t.Errorf("go doc does not describe the profile %s (want \"%s (\" in the -p text)", np.name, np.name)
		}
	}
	// -list-profiles names every step, the key steps included.
	for s := canon.Step(0); !strings.HasPrefix(s.String(), "Step("); s++ {
		if !strings.Contains(list, "\n  "+s.String()+"\n") {
			t.Errorf("canon -list-profiles does not list the step %s", s)
		}
	}
}

// TestStepsFlag checks -steps on the profiles, the key steps included:
// a step added or removed, and a combination NewProfile rejects, which is
// a usage error with the library's reason and one "canon: " prefix.
func TestStepsFlag(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		in     string
		want   string
		stderr string // a prefix of it; "" for none
		code   int
	}{
		{[]string{"-p", "whatwg", "-steps", "+SortQuery"}, "http://h/?b=1&a=2", "http://h/?a=2&b=1\n", "", 0},
		{[]string{"-p", "whatwg", "-steps", "+sortquery,+RemoveFragment"}, "http://h/?b=1&a=2#f", "http://h/?a=2&b=1\n", "", 0},
		{[]string{"-p", "crawler", "-steps", "-SortQuery"}, "http://h/?b=1&a=2#f", "http://h/?b=1&a=2\n", "", 0},
		{[]string{"-p", "archive", "-steps", "-StripWWWN"}, "http://www.h.com/A", "http://www.h.com/a\n", "", 0},
		{[]string{"-p", "aggressive", "-steps", "-HTTPSAsHTTP"}, "https://h.com/", "https://h.com/\n", "", 0},
		{[]string{"-steps", "+DecodePathRepeatedly"}, "http://h/%2541", "",
			"canon: -steps: step DecodePathRepeatedly needs ParseWHATWG", exitUsage},
		{[]string{"-p", "rfc3986", "-steps", "+NoSuchStep"}, "http://h/", "",
			"canon: -steps: unknown step \"NoSuchStep\" (see -list-profiles)\n", exitUsage},
	} {
		args := append(tc.args, tc.in)
		out, errOut, code := canonCmd(t, "", args...)
		if out != tc.want || code != tc.code || !strings.HasPrefix(errOut, tc.stderr) || (tc.stderr == "") != (errOut == "") ||
			strings.Count(errOut, "\n") > 1 || strings.Contains(errOut, "canon: canon:") {
			t.Errorf("canon %q: stdout %q, stderr %q, exit %d; want %q, stderr starting %q, exit %d", args, out, errOut, code, tc.want, tc.stderr, tc.code)
		}
	}
	// Every step can be named to -steps: added to whatwg it makes a
	// profile, or NewProfile's reason is a one-line usage error.
	for s := canon.Step(0); !strings.HasPrefix(s.String(), "Step("); s++ {
		_, errOut, code := canonCmd(t, "", "-p", "whatwg", "-steps", "+"+s.String(), "http://h/")
		if code == exitUsage && strings.HasPrefix(errOut, "canon: -steps: ") && !strings.Contains(errOut, "unknown step") &&
			strings.Count(errOut, "\n") == 1 && !strings.Contains(errOut, "canon: canon:") {
			continue
		}
		if code != 0 && code != exitFailed {
			t.Errorf("canon -p whatwg -steps +%s: exit %d, stderr %q", s, code, errOut)
		}
	}
}
