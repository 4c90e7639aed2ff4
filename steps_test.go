package canon

import (
	"os/exec"
	"strings"
	"testing"
)

// stepValues is every Step's value, as released: a KeyVersion digests the
// steps of a profile in the order of their values, and the predefined
// profiles are known by the set of their values, so a value that moved
// would change keys' labels without a rule version. A new step takes
// the next value; none is renumbered.
var stepValues = []struct {
	s     Step
	name  string
	value uint8
}{
	{ParseWHATWG, "ParseWHATWG", 0}, {DefaultScheme, "DefaultScheme", 1}, {DecodeAll, "DecodeAll", 2},
	{PlusToSpace, "PlusToSpace", 3}, {ResolveRFC1808, "ResolveRFC1808", 4}, {RemoveFragment, "RemoveFragment", 5},
	{LowercaseScheme, "LowercaseScheme", 6}, {LowercaseHost, "LowercaseHost", 7}, {HostToASCII, "HostToASCII", 8},
	{HostToUnicode, "HostToUnicode", 9}, {TrimHostDots, "TrimHostDots", 10}, {StripFileLocalhost, "StripFileLocalhost", 11},
	{RemoveHTTPFTPPort, "RemoveHTTPFTPPort", 12}, {RemoveDefaultPort, "RemoveDefaultPort", 13}, {EncodeToURI, "EncodeToURI", 14},
	{EncodeToIRI, "EncodeToIRI", 15}, {UppercaseEscapes, "UppercaseEscapes", 16}, {DecodeUnreserved, "DecodeUnreserved", 17},
	{DecodeIUnreserved, "DecodeIUnreserved", 18}, {NFC, "NFC", 19}, {RemoveDots, "RemoveDots", 20},
	{RemoveDots1808, "RemoveDots1808", 21}, {AddRootPath, "AddRootPath", 22}, {AddHTTPRootPath, "AddHTTPRootPath", 23},
	{RemoveUserinfo, "RemoveUserinfo", 24}, {HTTPSAsHTTP, "HTTPSAsHTTP", 25}, {StripWWW, "StripWWW", 26},
	{StripWWWN, "StripWWWN", 27}, {DecodePathRepeatedly, "DecodePathRepeatedly", 28}, {DecodeQueryRepeatedly, "DecodeQueryRepeatedly", 29},
	{CollapseSlashes, "CollapseSlashes", 30}, {LowercasePath, "LowercasePath", 31}, {RemoveSessionIDs, "RemoveSessionIDs", 32},
	{RemoveDirectoryIndex, "RemoveDirectoryIndex", 33}, {RemoveTrailingSlash, "RemoveTrailingSlash", 34}, {LowercaseQuery, "LowercaseQuery", 35},
	{RemoveTrackingParams, "RemoveTrackingParams", 36}, {RemoveEmptyParams, "RemoveEmptyParams", 37}, {RemoveEmptyQuery, "RemoveEmptyQuery", 38},
	{SortQuery, "SortQuery", 39}, {SortQueryPairs, "SortQueryPairs", 40}, {ParseSafeBrowsing, "ParseSafeBrowsing", 41},
	{ReadAsSURT, "ReadAsSURT", 42},
}

// TestStepValues pins each Step's value and name, and that there are
// no others.
func TestStepValues(t *testing.T) {
	if len(stepValues) != int(numSteps) {
		t.Errorf("%d steps pinned, numSteps is %d: pin the new step's value here", len(stepValues), numSteps)
	}
	for _, sv := range stepValues {
		if uint8(sv.s) != sv.value || sv.s.String() != sv.name {
			t.Errorf("%s = %d (String %q), released as %d", sv.name, uint8(sv.s), sv.s.String(), sv.value)
		}
		if s, err := ParseStep(sv.name); s != sv.s || err != nil {
			t.Errorf("ParseStep(%q) = %v, %v", sv.name, s, err)
		}
	}
	if s := Step(numSteps).String(); s != "Step(43)" {
		t.Errorf("Step(numSteps).String() = %q", s)
	}
}

// TestGoDocStep runs go doc on steps: each prints its own declaration
// and comment, not the others' (in a grouped const block go doc prints
// the whole block), and go doc -all on the type prints every step's.
func TestGoDocStep(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: go doc cannot be run")
	}
	for _, s := range []Step{ParseWHATWG, RemoveSessionIDs, ReadAsSURT} {
		out, err := exec.Command(goTool, "doc", ".", s.String()).CombinedOutput()
		if err != nil {
			t.Fatalf("go doc %v: %v\n%s", s, err, out)
		}
		text := string(out)
		if !strings.Contains(text, "const "+s.String()+" Step = ") || !strings.Contains(text, "    "+s.String()+" ") {
			t.Errorf("go doc %v prints no declaration or comment of its own:\n%s", s, text)
		}
		for _, o := range stepValues {
			if o.s == s {
				continue
			}
			if strings.Contains(text, "const "+o.name+" ") || strings.Contains(text, "\t"+o.name+"\n") || strings.Contains(text, "\t"+o.name+" Step") {
				t.Errorf("go doc %v prints %s too:\n%.600s", s, o.name, text)
				break
			}
		}
		if n := strings.Count(text, "\n"); n > 60 { // (the whole block was 348)
			t.Errorf("go doc %v prints %d lines", s, n)
		}
	}
	out, err := exec.Command(goTool, "doc", "-all", ".", "Step").CombinedOutput()
	if err != nil {
		t.Fatalf("go doc -all Step: %v\n%s", err, out)
	}
	for _, sv := range stepValues {
		if !strings.Contains(string(out), "const "+sv.name+" Step = ") {
			t.Errorf("go doc -all Step lacks %s", sv.name)
		}
	}
}
