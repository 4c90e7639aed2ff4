package canon

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"golang.org/x/text/encoding/htmlindex"
)

// TestEncodingBrowserDifferential compares Encoding.NormalizeRef under
// WHATWG with the href Chromium gives the links of pages in every
// encoding of the Encoding Standard: for each encoding a page (or, for
// the encodings a <meta charset> cannot select, a document made another
// way) with generated links, run by chromium --headless --dump-dom, whose
// script writes each link's href. testdata/encoding-browser/README.md
// says how the pages are made, and lists the expected differences: each
// is a class that a transformation in ebClasses defines (what Chromium
// does otherwise than the URL Standard, applied to canon's answer gives
// Chromium's). The test fails on a difference no class (or combination
// of classes) explains, on a class that no longer occurs, and on a class
// of the test that the README does not list, or the other way round. It
// checks document.characterSet too, and that LookupEncoding takes the
// labels as the Encoding Standard's "get an encoding" does (ebLabelPages:
// HTML's meta rules, and labels that are no labels).
//
// It runs with -long only. Without chromium it skips, saying what to
// install; with CI set it fails instead, as TestWHATWGDifferentialNode
// does without node. CANON_CHROMIUM names the binary to use;
// CANON_ENCODING_BROWSER_DIR keeps the pages and chromium's output in
// that directory; CANON_ENCODING_BROWSER_OUT writes every difference
// (expected or not) there, one per line, tab-separated.
func TestEncodingBrowserDifferential(t *testing.T) {
	if !*longTests {
		t.Skip("runs with -long (go test -run TestEncodingBrowserDifferential -long .): it needs chromium and takes about 40 s")
	}
	start := time.Now()
	chromium, version := ebChromium(t)
	readme := ebReadmeClasses(t)

	dir := os.Getenv(ebKeepEnv)
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	pages := ebPages()
	nLinks := 0
	for _, p := range pages {
		nLinks += len(p.links)
		if err := os.WriteFile(filepath.Join(dir, p.file), p.html(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	genTime := time.Since(start)

	browserStart := time.Now()
	results := ebRunAll(t, chromium, dir, pages)
	browserTime := time.Since(browserStart)

	compareStart := time.Now()
	var (
		out        bytes.Buffer
		unexpected []string
		total      = map[string]int{} // per class, over all pages
		totalDiffs int
		equal      int
		chromeFail int
		mailto     int // mailto: links with a non-ASCII query on pages whose output encoding is not UTF-8
		summary    []string
	)
	const show, showPerPage = 60, 4
	for i, p := range pages {
		res := results[i]
		if res.err != nil {
			t.Errorf("%s (%s): %v", p.file, p.what(), res.err)
			continue
		}
		if p.blank {
			summary = append(summary, fmt.Sprintf("%-15s %-26s no script ran, as HTML wants (the document is decoded as replacement: one U+FFFD)", p.doc, p.what()))
			continue
		}
		if p.bad {
			if res.CS == p.doc {
				t.Errorf("%s (%s): chromium's document.characterSet is %q: the label is no label of the Encoding Standard", p.file, p.what(), res.CS)
			}
			if enc, err := LookupEncoding(p.label); err == nil {
				t.Errorf("LookupEncoding(%+q) = %s, want an error: the Encoding Standard's \"get an encoding\" removes only ASCII whitespace and matches labels ASCII case-insensitively (chromium: %s)", p.label, enc.Name(), res.CS)
			}
			p.lookup = res.CS // the links are the default encoding's
		} else if res.CS != p.doc {
			t.Errorf("%s (%s): chromium's document.characterSet is %q, want %q", p.file, p.what(), res.CS, p.doc)
			continue
		}
		enc, err := LookupEncoding(p.lookup)
		if err != nil {
			t.Errorf("%s: LookupEncoding(%q): %v", p.file, p.lookup, err)
			continue
		}
		if want := ebOutputEncoding(res.CS); enc.Name() != want {
			t.Errorf("%s: LookupEncoding(%q).Name() = %q, want %q (the output encoding of %s)", p.file, p.lookup, enc.Name(), want, res.CS)
		}
		byClass := map[string]int{}
		pageUnexpected, pageEqual := 0, 0
		for j, l := range p.links {
			c := ebCase{page: p, doc: res.CS, link: l, enc: enc, href: res.H[j], ok: res.OK[j] == '1'}
			if !c.ok {
				chromeFail++
			}
			c.got, c.err = enc.NormalizeRef(ebBases[l.base], l.ref, WHATWG)
			if c.err == nil && ebScheme(c.got) == "mailto" && ebOutputEncoding(res.CS) != "UTF-8" && strings.ContainsFunc(l.query, func(r rune) bool { return r >= 0x80 }) {
				mailto++ // written in UTF-8 by Chromium too: no class but its own explains a difference
			}
			if c.agrees(c.got) {
				pageEqual++
				continue
			}
			totalDiffs++
			names := c.explain()
			for _, n := range names {
				byClass[n]++
				total[n]++
			}
			if os.Getenv(ebOutEnv) != "" {
				fmt.Fprintf(&out, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", res.CS, strings.Join(names, "+"), strconv.Quote(ebBases[l.base]), strconv.Quote(l.ref), c.chromiumText(), c.canonText(), ebCodePoints(l.ref))
			}
			if names != nil {
				continue
			}
			pageUnexpected++
			if pageUnexpected <= showPerPage && len(unexpected) < show {
				unexpected = append(unexpected, c.message())
			}
		}
		equal += pageEqual
		var cls []string
		for _, cl := range ebClasses {
			if byClass[cl.name] > 0 {
				cls = append(cls, fmt.Sprintf("%s %d", cl.name, byClass[cl.name]))
			}
		}
		if len(cls) == 0 {
			cls = append(cls, "none")
		}
		summary = append(summary, fmt.Sprintf("%-15s %-26s links %5d, equal %5d, expected differences: %s; unexpected %d",
			res.CS, p.what(), len(p.links), pageEqual, strings.Join(cls, ", "), pageUnexpected))
		if pageUnexpected > 0 {
			t.Errorf("%s (%s): %d differences that no class explains", res.CS, p.file, pageUnexpected)
		}
	}
	compareTime := time.Since(compareStart)

	for _, m := range unexpected {
		t.Error(m)
	}
	// The counts, and that each class occurs, are the README's for the
	// Chromium it names; another version (CI installs Debian's current
	// one) may have mended a departure, or moved a count: that is
	// reported, not failed. A difference no class explains fails with any
	// version.
	sameChromium := ebReadmeChromium(readme) != "" && strings.Contains(version, ebReadmeChromium(readme))
	if !sameChromium {
		t.Logf("%s's counts are from Chromium %s; this is %q: the counts and the classes are not held to it (update the README with this version's counts)", ebReadme, ebReadmeChromium(readme), version)
	}
	for _, cl := range ebClasses {
		if total[cl.name] == 0 {
			if sameChromium {
				t.Errorf("expected difference %q no longer occurs: remove it from ebClasses and %s", cl.name, ebReadme)
			} else {
				t.Logf("expected difference %q does not occur with this Chromium", cl.name)
			}
		}
	}
	if name := os.Getenv(ebOutEnv); name != "" {
		if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
			t.Error(err)
		} else {
			t.Logf("wrote the %d differences to %s (encoding, classes, base, ref, chromium, canon, the ref's non-ASCII code points)", totalDiffs, name)
		}
	}
	ebReadmeFigures(t, readme, len(pages), nLinks, mailto, total, sameChromium)
	t.Logf("oracle: %s; %d pages, %d links (%d the browser could not parse)", version, len(pages), nLinks, chromeFail)
	for _, s := range summary {
		t.Logf("  %s", s)
	}
	var cls []string
	for _, cl := range ebClasses {
		cls = append(cls, fmt.Sprintf("%s %d", cl.name, total[cl.name]))
	}
	t.Logf("equal %d; differences %d: by expected class (a difference two classes explain counts in both) %s", equal, totalDiffs, strings.Join(cls, ", "))
	t.Logf("time: pages %v, chromium %v (%d at a time), canon %v, total %v",
		genTime.Round(time.Millisecond), browserTime.Round(time.Millisecond), ebWorkers, compareTime.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

const (
	ebSeed        = 0x5eed_e4c0_d1e5
	ebRandomLinks = 1250 // per encoding, beside the exhaustive and the ASCII ones
	ebBase2Links  = 60   // per encoding, resolved against ebBases[1]
	ebChunk       = 32   // code points per exhaustive link
	ebWorkers     = 2    // chromium processes at a time
	ebPageTimeout = 150 * time.Second
	ebChromiumEnv = "CANON_CHROMIUM"
	ebKeepEnv     = "CANON_ENCODING_BROWSER_DIR"
	ebOutEnv      = "CANON_ENCODING_BROWSER_OUT"
	ebReadme      = "testdata/encoding-browser/README.md"
	ebInstall     = "apt-get install chromium"
)

// ebBases are the two base URLs of every page: the <base href> that the
// markup links resolve against, and one with non-ASCII in path and query
// that the page's script sets before it reads the last links (the base
// is read in the page's encoding too, so its query is the page's bytes).
var ebBases = [2]string{
	"http://example.jp/dir/page?x=1",
	"http://example.jp/d\u00efr/\u65e5\u672c/page?x=\u65e5\u00e9\u20ac\U0001F600&y=%41\u00a5#frag",
}

// ebEncodings is the Encoding Standard's encodings.json: every encoding
// with its labels.
var ebEncodings = []struct {
	name   string
	labels []string
}{
	{"UTF-8", []string{"unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"}},
	{"IBM866", []string{"866", "cp866", "csibm866", "ibm866"}},
	{"ISO-8859-2", []string{"csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592", "iso_8859-2", "iso_8859-2:1987", "l2", "latin2"}},
	{"ISO-8859-3", []string{"csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593", "iso_8859-3", "iso_8859-3:1988", "l3", "latin3"}},
	{"ISO-8859-4", []string{"csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594", "iso_8859-4", "iso_8859-4:1988", "l4", "latin4"}},
	{"ISO-8859-5", []string{"csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5", "iso88595", "iso_8859-5", "iso_8859-5:1988"}},
	{"ISO-8859-6", []string{"arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic", "ecma-114", "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127", "iso8859-6", "iso88596", "iso_8859-6", "iso_8859-6:1987"}},
	{"ISO-8859-7", []string{"csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7", "iso-ir-126", "iso8859-7", "iso88597", "iso_8859-7", "iso_8859-7:1987", "sun_eu_greek"}},
	{"ISO-8859-8", []string{"csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e", "iso-ir-138", "iso8859-8", "iso88598", "iso_8859-8", "iso_8859-8:1988", "visual"}},
	{"ISO-8859-8-I", []string{"csiso88598i", "iso-8859-8-i", "logical"}},
	{"ISO-8859-10", []string{"csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910", "l6", "latin6"}},
	{"ISO-8859-13", []string{"iso-8859-13", "iso8859-13", "iso885913"}},
	{"ISO-8859-14", []string{"iso-8859-14", "iso8859-14", "iso885914"}},
	{"ISO-8859-15", []string{"csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9"}},
	{"ISO-8859-16", []string{"iso-8859-16"}},
	{"KOI8-R", []string{"cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"}},
	{"KOI8-U", []string{"koi8-ru", "koi8-u"}},
	{"macintosh", []string{"csmacintosh", "mac", "macintosh", "x-mac-roman"}},
	{"windows-874", []string{"dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"}},
	{"windows-1250", []string{"cp1250", "windows-1250", "x-cp1250"}},
	{"windows-1251", []string{"cp1251", "windows-1251", "x-cp1251"}},
	{"windows-1252", []string{"ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252"}},
	{"windows-1253", []string{"cp1253", "windows-1253", "x-cp1253"}},
	{"windows-1254", []string{"cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9", "iso_8859-9:1989", "l5", "latin5", "windows-1254", "x-cp1254"}},
	{"windows-1255", []string{"cp1255", "windows-1255", "x-cp1255"}},
	{"windows-1256", []string{"cp1256", "windows-1256", "x-cp1256"}},
	{"windows-1257", []string{"cp1257", "windows-1257", "x-cp1257"}},
	{"windows-1258", []string{"cp1258", "windows-1258", "x-cp1258"}},
	{"x-mac-cyrillic", []string{"x-mac-cyrillic", "x-mac-ukrainian"}},
	{"GBK", []string{"chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58", "x-gbk"}},
	{"gb18030", []string{"gb18030"}},
	{"Big5", []string{"big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"}},
	{"EUC-JP", []string{"cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"}},
	{"ISO-2022-JP", []string{"csiso2022jp", "iso-2022-jp"}},
	{"Shift_JIS", []string{"csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis"}},
	{"EUC-KR", []string{"cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949"}},
	{"replacement", []string{"csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr", "replacement"}},
	{"UTF-16BE", []string{"unicodefffe", "utf-16be"}},
	{"UTF-16LE", []string{"csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"}},
	{"x-user-defined", []string{"x-user-defined"}},
}

// ebOutputEncoding is the Encoding Standard's "get an output encoding":
// the encoding the URL parser encodes a query in, for a document in enc.
func ebOutputEncoding(enc string) string {
	switch enc {
	case "replacement", "UTF-16BE", "UTF-16LE":
		return "UTF-8"
	}
	return enc
}

// ebLabelPages are pages whose <meta charset> is not a plain label of
// an encoding a meta element can select. HTML's prescan (and the
// parser's "change the encoding") turns UTF-16BE/LE into UTF-8 and
// x-user-defined into windows-1252, and a label of replacement decodes
// the page as replacement, a single U+FFFD: no script runs (blank).
// "Get an encoding" removes ASCII whitespace around a label (form feed
// is ASCII whitespace) and matches labels ASCII case-insensitively: a
// Kelvin sign (U+212A, which Unicode lowercases to "k"), a no-break
// space, a NEL (U+0085) or a vertical tab (not ASCII whitespace) makes a
// label no label (bad): LookupEncoding must fail on it, and chromium
// must not take the encoding the label would otherwise name (its
// document then has the default encoding, whatever the locale makes it).
//
// lookup is what LookupEncoding is given for the page's links: the
// document's encoding where HTML's rules, not the label, decide it.
var ebLabelPages = []struct {
	label, doc, lookup string
	blank, bad         bool
}{
	{"utf-16", "UTF-8", "UTF-8", false, false},
	{"UTF-16BE", "UTF-8", "UTF-8", false, false},
	{"x-user-defined", "windows-1252", "windows-1252", false, false},
	{"iso-2022-kr", "", "", true, false},
	{"\fkoi8-r\f", "KOI8-R", "\fkoi8-r\f", false, false},
	{"\u212Aoi8-r", "KOI8-R", "", false, true},
	{"\u00A0koi8-r", "KOI8-R", "", false, true},
	{"koi8-r\u0085", "KOI8-R", "", false, true},
	{"\vkoi8-r", "KOI8-R", "", false, true},
}

// ebLink is a link of a page.
type ebLink struct {
	ref    string // the href attribute's value
	query  string // the query the generator wrote (after "?", before "#"); "" if none
	form   string // the generator's form ("?q", "ws:", "exhaustive", ...)
	base   int    // index into ebBases
	script bool   // set by the page's script: U+0000 and C1 controls, which markup cannot carry, and every link of an XHR document
}

// ebPage is a page: how its encoding is selected, what chromium must
// report as its document.characterSet, and its links.
type ebPage struct {
	file   string
	how    string // "meta" (<meta charset=label>), "bom" (UTF-16 with a byte order mark), "xhr" (an XHR document with overrideMimeType's charset=label)
	label  string // the label the page gives (meta, xhr)
	doc    string // document.characterSet as chromium must report it
	lookup string // the label given to LookupEncoding
	blank  bool   // no script may run (see ebLabelPages)
	bad    bool   // label is no label: LookupEncoding must fail, and document.characterSet must not be doc
	links  []ebLink
}

func (p *ebPage) what() string {
	switch p.how {
	case "bom":
		return "byte order mark"
	case "xhr":
		return "XHR charset=" + p.label
	}
	return "meta charset=" + strconv.QuoteToASCII(p.label)
}

// ebPages makes the pages: one per encoding, then ebLabelPages. The
// generator is seeded: the pages are the same on every run.
func ebPages() []*ebPage {
	var pages []*ebPage
	for i, e := range ebEncodings {
		r := rand.New(rand.NewPCG(ebSeed, uint64(i)))
		p := &ebPage{file: fmt.Sprintf("%02d-%s.html", i, strings.ToLower(e.name)), doc: e.name}
		switch e.name {
		case "UTF-16BE", "UTF-16LE":
			p.how = "bom"
			p.lookup = e.labels[r.IntN(len(e.labels))]
		case "replacement", "x-user-defined":
			// A <meta charset> cannot select them (ebLabelPages).
			p.how = "xhr"
			p.label = e.labels[r.IntN(len(e.labels))]
			p.lookup = p.label
		default:
			p.how = "meta"
			p.label = ebVaryLabel(r, e.labels[r.IntN(len(e.labels))])
			p.lookup = p.label
		}
		g := newEBGen(r, e.name)
		p.links = g.links(ebRandomLinks, true)
		if p.how == "xhr" {
			for j := range p.links {
				p.links[j].script = true
			}
		}
		pages = append(pages, p)
	}
	for i, lp := range ebLabelPages {
		r := rand.New(rand.NewPCG(ebSeed, uint64(100+i)))
		p := &ebPage{file: fmt.Sprintf("label-%d.html", i), how: "meta", label: lp.label, doc: lp.doc, lookup: lp.lookup, blank: lp.blank, bad: lp.bad}
		enc := lp.doc
		if enc == "" || lp.bad {
			enc = "UTF-8"
		}
		switch {
		case lp.blank: // no script runs: no links
		case lp.bad:
			p.links = newEBGen(r, enc).links(20, false)
		default:
			p.links = newEBGen(r, enc).links(200, false)
		}
		pages = append(pages, p)
	}
	return pages
}

// ebVaryLabel writes a label as a page author might: in upper case, or
// with a space and a tab around it, which "get an encoding" ignores.
func ebVaryLabel(r *rand.Rand, label string) string {
	switch r.IntN(4) {
	case 0:
		return strings.ToUpper(label)
	case 1:
		return " " + label + "\t"
	}
	return label
}

// ebGen generates the links of one encoding's page.
type ebGen struct {
	r *rand.Rand
	// pool: the non-ASCII BMP code points that golang.org/x/text's
	// encoder of the encoding encodes, nil where the output encoding is
	// UTF-8. It only steers the sampling toward characters that have
	// bytes in the encoding (x/text's encoders depart from the standard
	// in places; what counts is canon's and chromium's answers).
	pool   []rune
	inPool map[rune]bool
}

func newEBGen(r *rand.Rand, enc string) *ebGen {
	g := &ebGen{r: r}
	if ebOutputEncoding(enc) == "UTF-8" {
		return g
	}
	e, err := htmlindex.Get(enc)
	if err != nil {
		panic(enc + ": " + err.Error())
	}
	coder := e.NewEncoder()
	g.inPool = map[rune]bool{}
	for c := rune(0x80); c <= 0xFFFF; c++ {
		if c >= 0xD800 && c <= 0xDFFF {
			continue
		}
		if _, err := coder.String(string(c)); err == nil {
			g.pool = append(g.pool, c)
			g.inPool[c] = true
		}
	}
	return g
}

// links returns the page's links: with full, every non-ASCII BMP code
// point in chunks of ebChunk (exhaustive); the ASCII ones in queries of
// every kind of scheme; n generated links of every form; with full,
// ebBase2Links resolved against ebBases[1].
func (g *ebGen) links(n int, full bool) []ebLink {
	var links []ebLink
	add := func(l ebLink) {
		for _, c := range l.ref {
			if c == 0 || c >= 0x80 && c <= 0x9F {
				l.script = true
			}
		}
		links = append(links, l)
	}
	if full {
		var chunk []rune
		flush := func() {
			q := "e=" + string(chunk)
			add(ebLink{ref: "?" + q, query: q, form: "exhaustive"})
			chunk = chunk[:0]
		}
		for c := rune(0x80); c <= 0xFFFF; c++ {
			if c >= 0xD800 && c <= 0xDFFF {
				continue
			}
			chunk = append(chunk, c)
			if len(chunk) == ebChunk {
				flush()
			}
		}
		if len(chunk) > 0 {
			flush()
		}
	}
	// ASCII: every printable character but "#", then the C0 controls
	// and DEL (tab, LF and CR the parser removes).
	var printable, controls strings.Builder
	for c := byte(0x20); c < 0x7F; c++ {
		if c != '#' {
			printable.WriteByte(c)
		}
	}
	for c := byte(1); c < 0x20; c++ {
		controls.WriteByte(c)
	}
	controls.WriteString("\x7f\x00x")
	for _, prefix := range []string{"?", "http://h.example/?", "ws://h.example/?", "foo://h.example/?", "foo:?", "file:///p?"} {
		for _, q := range []string{"a=" + printable.String(), "c=" + controls.String()} {
			if strings.Contains(q, "%27") {
				panic("ASCII query holds %27")
			}
			add(ebLink{ref: prefix + q, query: q, form: "ascii"})
		}
	}
	// ASCII in the other components: every printable character but the
	// component's delimiters in a path (special, not special, opaque,
	// file), in the user and the password, and in a fragment; and a
	// space before the "?" or "#" that ends an opaque path.
	var path, user, frag strings.Builder
	for c := byte(0x20); c < 0x7F; c++ {
		if c != '#' && c != '?' {
			path.WriteByte(c)
		}
		if c != '#' && c != '?' && c != '/' && c != '\\' && c != '@' && c != ':' {
			user.WriteByte(c)
		}
		frag.WriteByte(c)
	}
	P, U, F := path.String(), user.String(), frag.String()
	for _, ref := range []string{
		"http://h.example/" + P, "/" + P, "foo://h.example/" + P, "foo:a" + P, "file:///" + P,
		"http://" + U + ":" + U + ":@h.example/", "foo://" + U + ":" + U + ":@h.example/",
		"http://h.example/p#" + F, "foo:a#" + F,
		"foo:a ?q", "foo:a #f", "foo:a  ?q#f", "mailto:x@y.example ?subject=q",
	} {
		l := ebLink{ref: ref, form: "ascii components"}
		if _, q, ok, _ := ebSplit(ref); ok && !strings.Contains(ref, "#"+F) {
			l.query = q
		}
		add(l)
	}
	for range n {
		add(g.link())
	}
	if full {
		for range ebBase2Links {
			l := g.base2Link()
			l.base = 1
			l.script = true
			add(l)
		}
	}
	return links
}

func (g *ebGen) pick(s []rune) rune { return s[g.r.IntN(len(s))] }

// anyBMP returns a non-ASCII BMP scalar value.
func (g *ebGen) anyBMP() rune {
	for {
		c := rune(0x80 + g.r.IntN(0x10000-0x80))
		if c < 0xD800 || c > 0xDFFF {
			return c
		}
	}
}

// encodable returns a code point of the pool (any if there is none).
func (g *ebGen) encodable() rune {
	if g.pool == nil {
		return g.anyBMP()
	}
	return g.pick(g.pool)
}

// unmappable returns a BMP code point outside the pool (where there is
// a pool: most likely one the encoding has no bytes for).
func (g *ebGen) unmappable() rune {
	for range 50 {
		if c := g.anyBMP(); !g.inPool[c] && (c < 0x80 || c > 0x9F) {
			return c
		}
	}
	return 0x4E02
}

// astral returns a code point beyond the BMP, from the planes that have
// characters, and the edges.
func (g *ebGen) astral() rune {
	planes := []int{1, 1, 1, 2, 2, 3, 14, 15, 16}
	switch g.r.IntN(20) {
	case 0:
		return 0x10000
	case 1:
		return 0x10FFFF
	}
	return rune(planes[g.r.IntN(len(planes))]<<16 | g.r.IntN(0x10000))
}

// ebSpecials are code points every encoding's links meet: the WPT
// vectors' characters (U+2020, U+203E, U+005C, U+E5E5, U+2212, U+00A2,
// U+00A5, U+20AC, halfwidth katakana), the edges of the encoders
// (gb18030's table of Private Use code points and its ranges' U+E7C7,
// Big5's last-pointer characters, Shift_JIS's NEC/IBM duplicates,
// x-user-defined's U+F780..U+F7FF), noncharacters, U+FFFD and BOM, and
// characters of the single-byte encodings.
var ebSpecials = []rune{
	0x2020, 0x203E, 0x005C, 0xE5E5, 0x2212, 0x00A2, 0x00A5, 0x20AC, 0xFF61, 0xFF64, 0xFF70, 0xFF71, 0xFF9E, 0xFF9F, 0x30FC, 0xFF0D,
	0xFFFD, 0xFFFE, 0xFFFF, 0xFDD0, 0xFEFF, 0x00A0, 0x00AD, 0x00FF, 0x0100, 0x00D7, 0x00F7, 0x00B5, 0x00E9,
	0xE7C7, 0x1E3F, 0xE78D, 0xE796, 0xE81E, 0xE826, 0xE82B, 0xE82C, 0xE832, 0xE843, 0xE854, 0xE864, 0xE000, 0xE4C5, 0xE5E4, 0xE5E6,
	0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345, 0x3000, 0x301C, 0xFF5E, 0x2225, 0x2016, 0x2015, 0x2014, 0xFFE2, 0x2252, 0x2261,
	0x222B, 0x2235, 0x22A5, 0x2220, 0x221F, 0x22BF, 0x2170, 0x2160, 0xFFE4, 0xFF07, 0xFF02, 0x00CA, 0x00EA, 0x0304, 0x030C,
	0xF780, 0xF7C0, 0xF7FF, 0xF77F, 0xF800, 0x0E3F, 0x0401, 0x0451, 0x05D0, 0x0627, 0x03A9, 0x20AF, 0x2116,
	0x1F600, 0x10000, 0x10FFFF, 0x20000, 0x2A6D6, 0xE0001, 0xF0000, 0x0E, 0x0F, 0x1B, 0x7F,
}

// ebSequences are runs that switch ISO-2022-JP's encoder between its
// states (ASCII, Roman, jis0208) and put an unmappable character or an
// escape byte in each.
var ebSequences = []string{
	"\x0eA", "\u203e\\", "\\\u00a5", "\x1b$B", "\x1b(J", "\x1b(B", "\u00a5\u00a5", "\u00a5\U0001F600\u00a5",
	"\u65e5\U0001F600\u65e5", "\u00a5a\u203e~", "\uff71\u65e5a", "\u00a5\u65e5\u00a5", "\u65e5\x0eA", "\u00a5\x1b",
	"\u00ca\u0304", "\u00ea\u030c", "\u2212\u00a5", "\u65e5\u4e02\u65e5", "\u00a5\u4e02", "\uff9e\uff9f\u309b",
}

// query returns a query: 1 to 5 segments of the kinds segment makes.
func (g *ebGen) query() string {
	for {
		var b strings.Builder
		for n := 1 + g.r.IntN(5); n > 0; n-- {
			g.segment(&b)
		}
		// No literal "%27": the class predicates read %27 as an
		// encoded apostrophe.
		if q := b.String(); !strings.Contains(q, "%27") {
			return q
		}
	}
}

const ebQueryASCII = "abcXYZ0129-._~!$&()*+,;=:@/?\"<>' `{}|\\^[]"

func (g *ebGen) segment(b *strings.Builder) {
	switch n := g.r.IntN(100); {
	case n < 30: // a run of characters the encoding has
		for k := 1 + g.r.IntN(8); k > 0; k-- {
			b.WriteRune(g.encodable())
		}
	case n < 38: // most likely unmappable
		for k := 1 + g.r.IntN(3); k > 0; k-- {
			b.WriteRune(g.unmappable())
		}
	case n < 44:
		for k := 1 + g.r.IntN(2); k > 0; k-- {
			b.WriteRune(g.astral())
		}
	case n < 54:
		for k := 1 + g.r.IntN(3); k > 0; k-- {
			b.WriteRune(g.pick(ebSpecials))
		}
	case n < 60:
		b.WriteString(ebSequences[g.r.IntN(len(ebSequences))])
	case n < 72: // ASCII, with what the special-query set encodes
		for k := 1 + g.r.IntN(6); k > 0; k-- {
			b.WriteByte(ebQueryASCII[g.r.IntN(len(ebQueryASCII))])
		}
	case n < 78: // the text of a character reference, which stays text
		refs := []string{
			"&#" + strconv.Itoa(int(g.encodable())) + ";",
			"&#" + strconv.Itoa(int(g.unmappable())) + ";",
			"&#" + strconv.Itoa(int(g.astral())) + ";",
			"&#x41;", "&#65533;", "&#;", "&#12345", "&amp;", "&#0;",
		}
		b.WriteString(refs[g.r.IntN(len(refs))])
	case n < 84: // characters of the encoding between ASCII ones
		for k := 1 + g.r.IntN(4); k > 0; k-- {
			b.WriteRune(g.encodable())
			b.WriteByte("a~\\1 '"[g.r.IntN(6)])
		}
	case n < 88: // escapes, valid and not (never %27: see query)
		escapes := []string{"%41", "%e6%97%a5", "%E6%97%A5", "%93%FA", "%zz", "%z", "%%z", "%2z", "%7E", "%20", "%23", "%26%23"}
		b.WriteString(escapes[g.r.IntN(len(escapes))])
	case n < 90: // removed by the parser
		b.WriteByte("\t\n\r"[g.r.IntN(3)])
	case n < 92: // C1 controls (set by script), U+0000
		if g.r.IntN(4) == 0 {
			b.WriteByte(0)
		} else {
			b.WriteRune(rune(0x80 + g.r.IntN(0x20)))
		}
	case n < 96: // halfwidth katakana
		for k := 1 + g.r.IntN(4); k > 0; k-- {
			b.WriteRune(rune(0xFF61 + g.r.IntN(0xFF9F-0xFF61+1)))
		}
	default:
		b.WriteString([]string{"&k=", "=", "&", "+", "?"}[g.r.IntN(5)])
	}
}

// text returns 1 to 3 characters for a path segment or a fragment: the
// encoding's (which must stay UTF-8 there), any, or ASCII.
func (g *ebGen) text() string {
	var b strings.Builder
	for k := 1 + g.r.IntN(3); k > 0; k-- {
		switch g.r.IntN(5) {
		case 0, 1:
			b.WriteRune(g.encodable())
		case 2:
			b.WriteRune(g.unmappable())
		case 3:
			b.WriteRune(g.astral())
		default:
			b.WriteString([]string{"a", "b2", "x-y", "%41", "~", "\u00e9", "%e6%97%a5"}[g.r.IntN(7)])
		}
	}
	return b.String()
}

func (g *ebGen) path() string {
	segs := make([]string, 1+g.r.IntN(3))
	for i := range segs {
		segs[i] = g.text()
	}
	return strings.Join(segs, "/")
}

// host returns a host: mostly ASCII, sometimes an IDN (which must be
// IDNA's, whatever the page's encoding).
func (g *ebGen) host() string {
	if g.r.IntN(10) == 0 {
		return []string{"b\u00fccher.example", "\u65e5\u672c.example", "\u00d6BB.example", "fa\u00df.example", "xn--bcher-kva.example"}[g.r.IntN(5)]
	}
	return []string{"h.example", "other.example", "H.Example", "127.0.0.1"}[g.r.IntN(4)]
}

// userinfo returns "" mostly, sometimes a non-ASCII userinfo (UTF-8).
func (g *ebGen) userinfo() string {
	if g.r.IntN(10) == 0 {
		return []string{"\u00fc:\u00df@", "us\u00e9r@", "u:p\u65e5@"}[g.r.IntN(3)]
	}
	return ""
}

// link returns a generated link: a query in one of the forms, with a
// path and a fragment.
func (g *ebGen) link() ebLink {
	q, p := g.query(), g.path()
	l := ebLink{query: q}
	switch n := g.r.IntN(100); {
	case n < 14:
		l.form, l.ref = "?q", "?"+q
	case n < 25:
		l.form, l.ref = "/p?q", "/"+p+"?"+q
	case n < 32:
		l.form, l.ref = "p?q", p+"?"+q
	case n < 35:
		l.form, l.ref = "../p?q", "../"+p+"?"+q
	case n < 42:
		l.form, l.ref = "//host/p?q", "//"+g.host()+"/"+p+"?"+q
	case n < 51:
		l.form, l.ref = "http:", "http://"+g.userinfo()+g.host()+"/"+p+"?"+q
	case n < 56:
		l.form, l.ref = "https:", "https://"+g.userinfo()+g.host()+":8443/"+p+"?"+q
	case n < 60:
		l.form, l.ref = "ftp:", "ftp://"+g.userinfo()+g.host()+"/"+p+"?"+q
	case n < 65:
		if g.r.IntN(2) == 0 {
			l.form, l.ref = "file:", "file:///"+p+"?"+q
		} else {
			l.form, l.ref = "file:", "file://h.example/"+p+"?"+q
		}
	case n < 71:
		l.form, l.ref = "ws:", "ws://"+g.host()+"/"+p+"?"+q
	case n < 76:
		l.form, l.ref = "wss:", "wss://"+g.host()+"/"+p+"?"+q
	case n < 82:
		l.form, l.ref = "foo://", "foo://"+g.userinfo()+"h.example/"+p+"?"+q
	case n < 85:
		l.form, l.ref = "foo:?q", "foo:?"+q
	case n < 87:
		l.form, l.ref = "foo:/p?q", "foo:/"+p+"?"+q
	case n < 89:
		l.form, l.ref = "mailto:", "mailto:x@y.example?subject="+q
		l.query = "subject=" + q
	case n < 92:
		l.form, l.ref = "HTTP:", "HtTp://H.EXAMPLE/"+p+"?"+q
	case n < 95:
		l.form, l.ref, l.query = "/p", "/"+p, ""
	case n < 97:
		l.form, l.ref = "??q", "??"+q
		l.query = "?" + q
	default:
		l.form, l.ref = "p?q#", p+"?"+q+"#"
	}
	if g.r.IntN(3) == 0 {
		l.ref += "#" + g.text()
	}
	if g.r.IntN(40) == 0 {
		l.ref = " " + l.ref + " "
	}
	return l
}

// base2Link returns a link that takes the base's query, or replaces it:
// against ebBases[1], whose query is read in the page's encoding.
func (g *ebGen) base2Link() ebLink {
	switch g.r.IntN(5) {
	case 0:
		return ebLink{ref: "", form: "base2 empty"}
	case 1, 2:
		return ebLink{ref: "#" + g.text(), form: "base2 #f"}
	case 3:
		q := g.query()
		return ebLink{ref: "?" + q, query: q, form: "base2 ?q"}
	}
	return ebLink{ref: g.path(), form: "base2 p"}
}

// html returns the page's bytes.
func (p *ebPage) html() []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n")
	if p.how == "meta" {
		// Labels of printable ASCII, spaces and tabs as they are, so
		// that the prescan reads them; others as references, which
		// only the tree builder's meta handling decodes.
		b.WriteString(`<meta charset="`)
		if strings.Trim(p.label, " \tabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:") == "" {
			b.WriteString(p.label)
		} else {
			ebAttr(&b, p.label)
		}
		b.WriteString("\">\n")
	}
	if p.how != "xhr" {
		b.WriteString(`<base href="`)
		ebAttr(&b, ebBases[0])
		b.WriteString("\">\n")
	} else {
		b.WriteString(`<meta charset="utf-8">` + "\n")
	}
	b.WriteString("<title>canon TestEncodingBrowserDifferential: " + p.doc + "</title>\n<body>\n<pre id=\"out\"></pre>\n")
	var script []ebLink
	for _, l := range p.links {
		if l.script {
			script = append(script, l)
			continue
		}
		b.WriteString(`<a href="`)
		ebAttr(&b, l.ref)
		b.WriteString("\"></a>\n")
	}
	// Base-1 links last: the script sets the base once, before them.
	slices.SortStableFunc(script, func(a, b ebLink) int { return a.base - b.base })
	b.WriteString("<script>\nvar B = [")
	for i, s := range ebBases {
		if i > 0 {
			b.WriteString(", ")
		}
		ebJS(&b, s)
	}
	b.WriteString("];\nvar S = [\n")
	for _, l := range script {
		b.WriteString("[")
		ebJS(&b, l.ref)
		b.WriteString(", " + strconv.Itoa(l.base) + "],\n")
	}
	b.WriteString("];\n")
	if p.how == "xhr" {
		b.WriteString("var LABEL = ")
		ebJS(&b, p.label)
		b.WriteString(";\n")
	}
	b.WriteString(ebScript)
	b.WriteString("</script>\n")
	s := b.String()
	if p.how != "bom" {
		return []byte(s)
	}
	var u []uint16
	u = append(u, 0xFEFF)
	u = append(u, utf16.Encode([]rune(s))...)
	out := make([]byte, 0, 2*len(u))
	for _, c := range u {
		if p.doc == "UTF-16BE" {
			out = append(out, byte(c>>8), byte(c))
		} else {
			out = append(out, byte(c), byte(c>>8))
		}
	}
	return out
}

// ebScript reads the links' hrefs: the markup ones, then those of S
// (created with setAttribute, base 0 then base 1), and writes
// {cs: document.characterSet, h: hrefs, ok: "1" per link that parsed,
// "0" per one that did not} as JSON with every non-ASCII character
// escaped, in base64, into <pre id=out>: dump-dom's text needs no
// unescaping. With LABEL set, the links go into an XHR document made
// with overrideMimeType("text/html; charset=" + LABEL) instead.
const ebScript = `(function () {
  var out = document.getElementById("out");
  function run(d) {
    var H = [], K = "", base = d.querySelector("base");
    if (!base) {
      base = d.createElement("base");
      base.setAttribute("href", B[0]);
      d.head.appendChild(base);
    }
    function take(a) { H.push(a.href); K += a.protocol === ":" ? "0" : "1"; }
    var ms = d.querySelectorAll("a[href]");
    for (var i = 0; i < ms.length; i++) take(ms[i]);
    var set = false;
    for (var i = 0; i < S.length; i++) {
      if (S[i][1] === 1 && !set) { base.setAttribute("href", B[1]); set = true; }
      var a = d.createElement("a");
      a.setAttribute("href", S[i][0]);
      take(a);
    }
    var j = JSON.stringify({cs: d.characterSet, h: H, ok: K});
    j = j.replace(/[\u007f-\uffff]/g, function (c) { return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4); });
    out.textContent = btoa(j);
  }
  if (typeof LABEL === "undefined") { run(document); return; }
  var x = new XMLHttpRequest();
  x.open("GET", URL.createObjectURL(new Blob(["<!DOCTYPE html><title>t</title>"], {type: "text/html"})));
  x.overrideMimeType("text/html; charset=" + LABEL);
  x.responseType = "document";
  x.onload = function () { run(x.response); };
  x.onerror = function () { out.textContent = "XHR failed"; };
  x.send();
})();
`

// ebAttr writes s as an attribute value: ASCII letters, digits and the
// punctuation HTML leaves alone as they are, everything else as a
// numeric character reference (so the page is ASCII whatever its
// encoding, and "&" is "&#x26;": a literal "&#1234;" stays text).
func ebAttr(b *strings.Builder, s string) {
	for _, c := range s {
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-._~!$()*+,;=:@/?%[]{}|^`\\#", c)) {
			b.WriteRune(c)
			continue
		}
		fmt.Fprintf(b, "&#x%X;", c)
	}
}

// ebJS writes s as a JavaScript string literal of ASCII.
func ebJS(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c >= 0x20 && c < 0x7F && !strings.ContainsRune("\"\\<>&", c):
			b.WriteRune(c)
		case c >= 0x10000:
			hi, lo := utf16.EncodeRune(c)
			fmt.Fprintf(b, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(b, `\u%04x`, c)
		}
	}
	b.WriteByte('"')
}

// ebResult is what a page's script wrote, with the hrefs in the order of
// the page's links.
type ebResult struct {
	CS  string   `json:"cs"`
	H   []string `json:"h"`
	OK  string   `json:"ok"`
	err error
}

var ebOutRE = regexp.MustCompile(`<pre id="out">([^<]*)</pre>`)

// ebRunAll runs chromium on every page, ebWorkers at a time.
func ebRunAll(t *testing.T, chromium, dir string, pages []*ebPage) []ebResult {
	results := make([]ebResult, len(pages))
	var wg sync.WaitGroup
	sem := make(chan struct{}, ebWorkers)
	for i, p := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = ebRun(chromium, dir, i, p)
		}()
	}
	wg.Wait()
	return results
}

// ebRun runs chromium on one page and returns its answers in the order
// of p.links.
func ebRun(chromium, dir string, i int, p *ebPage) ebResult {
	ctx, cancel := context.WithTimeout(context.Background(), ebPageTimeout)
	defer cancel()
	abs, err := filepath.Abs(filepath.Join(dir, p.file))
	if err != nil {
		return ebResult{err: err}
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--mute-audio", "--user-data-dir=" + filepath.Join(dir, fmt.Sprintf("profile-%02d", i))}
	if p.how == "xhr" {
		// The XHR is asynchronous: let the page run past its load event.
		args = append(args, "--virtual-time-budget=60000")
	}
	args = append(args, "--dump-dom", "file://"+filepath.ToSlash(abs))
	cmd := exec.CommandContext(ctx, chromium, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if os.Getenv(ebKeepEnv) != "" {
		os.WriteFile(filepath.Join(dir, p.file+".dom"), stdout.Bytes(), 0o644)
	}
	if err != nil {
		return ebResult{err: fmt.Errorf("chromium: %v; stderr: %s", err, ebTail(stderr.String()))}
	}
	res := ebParse(p, stdout.Bytes())
	if res.err != nil {
		res.err = fmt.Errorf("%v; stderr: %s", res.err, ebTail(stderr.String()))
	}
	return res
}

// ebParse reads the answers from chromium's DOM of page p, in the order
// of p.links.
func ebParse(p *ebPage, dom []byte) ebResult {
	m := ebOutRE.FindSubmatch(dom)
	if p.blank {
		if m != nil || !bytes.Contains(dom, []byte("\uFFFD")) {
			return ebResult{err: fmt.Errorf("the page should be decoded as replacement (one U+FFFD, no script); chromium's DOM: %s", ebTail(string(dom)))}
		}
		return ebResult{}
	}
	if m == nil {
		return ebResult{err: fmt.Errorf("no <pre id=\"out\"> in chromium's DOM: %s", ebTail(string(dom)))}
	}
	js, err := base64.StdEncoding.DecodeString(string(m[1]))
	if err != nil {
		return ebResult{err: fmt.Errorf("the script's output %q is not base64: %v", ebTail(string(m[1])), err)}
	}
	var res ebResult
	if err := json.Unmarshal(js, &res); err != nil {
		return ebResult{err: fmt.Errorf("the script's output is not JSON: %v", err)}
	}
	if len(res.H) != len(p.links) || len(res.OK) != len(p.links) {
		return ebResult{err: fmt.Errorf("%d hrefs and %d flags for %d links", len(res.H), len(res.OK), len(p.links))}
	}
	// The script read the markup links first, then the script ones
	// (base 0, then base 1); put them back in the order of p.links.
	var order []int
	for j, l := range p.links {
		if !l.script {
			order = append(order, j)
		}
	}
	for base := range ebBases {
		for j, l := range p.links {
			if l.script && l.base == base {
				order = append(order, j)
			}
		}
	}
	h, ok := make([]string, len(p.links)), make([]byte, len(p.links))
	for k, j := range order {
		h[j], ok[j] = res.H[k], res.OK[k]
	}
	res.H, res.OK = h, string(ok)
	return res
}

func ebTail(s string) string {
	if len(s) > 600 {
		s = "..." + s[len(s)-600:]
	}
	return strings.TrimSpace(s)
}

// ebChromium finds chromium ($CANON_CHROMIUM, else chromium,
// chromium-browser, google-chrome on PATH) and its version. Without it
// the test skips, or fails under CI (wdnInCI).
func ebChromium(t *testing.T) (string, string) {
	t.Helper()
	path := os.Getenv(ebChromiumEnv)
	if path == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
			if p, err := exec.LookPath(name); err == nil {
				path = p
				break
			}
		}
	}
	if path == "" {
		msg := "the browser differential test of page encodings does not run: chromium is not on PATH: " + ebInstall + " (Debian, Ubuntu), or set " + ebChromiumEnv + " to a Chromium or Chrome binary"
		if wdnInCI() {
			t.Fatal(msg + " (CI is set: this test must not skip)")
		}
		t.Skip(msg + " (under CI, with the environment variable CI set, this fails instead of skipping)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	v, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", path, err)
	}
	return path, strings.TrimSpace(string(v))
}

// ebCase is a link with chromium's answer and canon's.
type ebCase struct {
	page *ebPage
	doc  string // the document's encoding (chromium's document.characterSet)
	link ebLink
	enc  Encoding
	href string // chromium's href (the attribute's value where !ok)
	ok   bool   // chromium parsed the link
	got  string // canon's
	err  error
}

// agrees reports whether canon's answer, made into s, is chromium's.
func (c *ebCase) agrees(s string) bool {
	if c.err != nil {
		return !c.ok
	}
	return c.ok && s == c.href
}

func (c *ebCase) chromiumText() string {
	if !c.ok {
		return "failure (href " + strconv.Quote(c.href) + ")"
	}
	return strconv.Quote(c.href)
}

func (c *ebCase) canonText() string {
	if c.err != nil {
		return "error: " + c.err.Error()
	}
	return strconv.Quote(c.got)
}

// message is the failure message of an unexplained difference.
func (c *ebCase) message() string {
	base := ebBases[c.link.base]
	switch {
	case c.err != nil:
		return fmt.Sprintf("NormalizeRef(%q, %q, WHATWG) in %s: %v, want %q (chromium) [%s; %s]", base, c.link.ref, c.doc, c.err, c.href, c.link.form, ebCodePoints(c.link.ref))
	case !c.ok:
		return fmt.Sprintf("NormalizeRef(%q, %q, WHATWG) in %s = %q, want failure (chromium) [%s; %s]", base, c.link.ref, c.doc, c.got, c.link.form, ebCodePoints(c.link.ref))
	}
	return fmt.Sprintf("NormalizeRef(%q, %q, WHATWG) in %s = %q, want %q (chromium) [%s; %s]", base, c.link.ref, c.doc, c.got, c.href, c.link.form, ebCodePoints(c.link.ref))
}

// ebCodePoints lists the non-ASCII code points and the controls of s.
func ebCodePoints(s string) string {
	var cps []string
	for _, c := range s {
		if c >= 0x80 || c < 0x20 || c == 0x7F {
			cps = append(cps, fmt.Sprintf("U+%04X", c))
		}
	}
	if len(cps) > 40 {
		cps = append(cps[:40], "...")
	}
	if cps == nil {
		return "ASCII"
	}
	return strings.Join(cps, " ")
}

// ebClass is an expected difference: Chromium departs from the URL
// Standard in a way transform says. transform returns what Chromium
// gives where canon (which follows the standard) gives s, and false where
// the class does not apply to the case.
type ebClass struct {
	name      string
	transform func(c *ebCase, s string) (string, bool)
}

// ebClasses are the expected differences; testdata/encoding-browser/
// README.md lists them, with the standard's text that decides each.
var ebClasses = []ebClass{
	{"query-in-page-encoding", ebQueryInPageEncoding},
	{"non-special-query-apostrophe", ebNonSpecialApostrophe},
	{"base-href-utf-8", ebBaseHrefUTF8},
	{"path-pipe", ebPathPipe},
	{"userinfo-apostrophe", ebUserinfoApostrophe},
	{"opaque-path-space", ebOpaquePathSpace},
}

// explain returns the classes whose transforms, applied in order, make
// canon's answer chromium's: the fewest that do, nil if none does.
func (c *ebCase) explain() []string {
	if c.err != nil || !c.ok {
		return nil
	}
	n := len(ebClasses)
	var best []string
	for mask := 1; mask < 1<<n; mask++ {
		s, applies := c.got, true
		var names []string
		for k, cl := range ebClasses {
			if mask&(1<<k) == 0 {
				continue
			}
			if s, applies = cl.transform(c, s); !applies {
				break
			}
			names = append(names, cl.name)
		}
		if applies && s == c.href && (best == nil || len(names) < len(best)) {
			best = names
		}
	}
	return best
}

// ebSplit splits an href into what comes before its query, the query
// (without "?"; "" and false if none) and the fragment (with "#").
func ebSplit(href string) (head, query string, hasQuery bool, frag string) {
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href, frag = href[:i], href[i:]
	}
	head, query, hasQuery = strings.Cut(href, "?")
	return head, query, hasQuery, frag
}

func ebScheme(href string) string {
	s, _, _ := strings.Cut(href, ":")
	return strings.ToLower(s)
}

func ebSpecial(scheme string) bool {
	switch scheme {
	case "http", "https", "ftp", "file", "ws", "wss":
		return true
	}
	return false
}

// ebQueryInPageEncoding: Chromium encodes the query of a ws: or wss: URL,
// and of a URL of a non-special scheme but mailto: (whose query it writes
// in UTF-8), in the page's encoding, where the URL Standard's query state
// sets the encoding to UTF-8 for them. What
// Chromium gives is canon's answer with the query that canon writes for
// the same query text in an http: URL (canon's own encoder: the class
// holds no second copy of the encodings), with "%27" back to "'" for a
// non-special URL, whose query percent-encode set has no "'" (the
// generator writes no literal "%27"; ebNonSpecialApostrophe is separate).
func ebQueryInPageEncoding(c *ebCase, s string) (string, bool) {
	scheme := ebScheme(s)
	if ebOutputEncoding(c.doc) == "UTF-8" || c.link.query == "" || scheme == "http" || scheme == "https" || scheme == "ftp" || scheme == "file" || scheme == "mailto" {
		return "", false
	}
	head, _, hasQuery, frag := ebSplit(s)
	if !hasQuery {
		return "", false
	}
	// The query with what follows it in the link: a fragment keeps
	// trailing spaces and controls in the query, the end of the link
	// removes them.
	i := strings.Index(c.link.ref, "?"+c.link.query)
	if i < 0 {
		return "", false
	}
	special, err := c.enc.NormalizeRef("http://example.jp/", c.link.ref[i:], WHATWG)
	if err != nil {
		return "", false
	}
	_, q, _, _ := ebSplit(special)
	if !ebSpecial(scheme) {
		q = strings.ReplaceAll(q, "%27", "'")
	}
	return head + "?" + q + frag, true
}

// ebNonSpecialApostrophe: Chromium percent-encodes "'" in the query of a
// URL of a non-special scheme, whatever the page's encoding, where the
// URL Standard's query state uses the query percent-encode set, which has
// no "'" (the special-query percent-encode set, for special URLs, has).
func ebNonSpecialApostrophe(c *ebCase, s string) (string, bool) {
	if ebSpecial(ebScheme(s)) {
		return "", false
	}
	head, q, hasQuery, frag := ebSplit(s)
	if !hasQuery || !strings.Contains(q, "'") {
		return "", false
	}
	return head + "?" + strings.ReplaceAll(q, "'", "%27") + frag, true
}

// ebBaseHrefUTF8: Chromium parses a <base href> as UTF-8, where HTML's
// "set the frozen base URL" parses it with the document's character
// encoding (as canon's NormalizeRef reads its base in enc): a link
// without a query of its own ("" or "#f") takes the base's query, which
// Chromium gives in UTF-8. What Chromium gives is canon's answer with the
// query NormalizeRef gives in UTF-8.
func ebBaseHrefUTF8(c *ebCase, s string) (string, bool) {
	if c.link.base == 0 || ebOutputEncoding(c.doc) == "UTF-8" || c.link.ref != "" && c.link.ref[0] != '#' {
		return "", false
	}
	u, err := NormalizeRef(ebBases[c.link.base], c.link.ref, WHATWG)
	if err != nil {
		return "", false
	}
	head, _, hasQuery, frag := ebSplit(s)
	_, q, hasUQuery, _ := ebSplit(u)
	if !hasQuery || !hasUQuery {
		return "", false
	}
	return head + "?" + q + frag, true
}

// ebJoin is ebSplit's inverse.
func ebJoin(head, query string, hasQuery bool, frag string) string {
	if hasQuery {
		head += "?" + query
	}
	return head + frag
}

// ebAuthority splits the part of an href before its query into the
// scheme and "//", the authority, and the path; ok is false for a URL
// without an authority.
func ebAuthority(head string) (start, authority, path string, ok bool) {
	i := strings.Index(head, "://")
	if i < 0 || strings.ContainsAny(head[:i], "/?#") {
		return "", "", "", false
	}
	start, rest := head[:i+3], head[i+3:]
	if k := strings.IndexByte(rest, '/'); k >= 0 {
		return start, rest[:k], rest[k:], true
	}
	return start, rest, "", true
}

// ebPathPipe: Chromium percent-encodes "|" in the path of a URL with an
// authority (http:, file:, foo://h/), where the URL Standard's path
// percent-encode set has no "|" (an opaque path keeps it in both).
func ebPathPipe(c *ebCase, s string) (string, bool) {
	head, q, hasQuery, frag := ebSplit(s)
	start, auth, path, ok := ebAuthority(head)
	if !ok || !strings.Contains(path, "|") {
		return "", false
	}
	return ebJoin(start+auth+strings.ReplaceAll(path, "|", "%7C"), q, hasQuery, frag), true
}

// ebUserinfoApostrophe: Chromium percent-encodes "'" in the username and
// the password, where the URL Standard's userinfo percent-encode set has
// no "'".
func ebUserinfoApostrophe(c *ebCase, s string) (string, bool) {
	head, q, hasQuery, frag := ebSplit(s)
	start, auth, path, ok := ebAuthority(head)
	at := strings.LastIndexByte(auth, '@')
	if !ok || at < 0 || !strings.Contains(auth[:at], "'") {
		return "", false
	}
	return ebJoin(start+strings.ReplaceAll(auth[:at], "'", "%27")+auth[at:]+path, q, hasQuery, frag), true
}

// ebOpaquePathSpace: Chromium keeps a space that ends an opaque path
// before its query or fragment ("foo:a ?q", "mailto:x@y ?subject=q"),
// which the URL Standard's opaque path state writes "%20".
func ebOpaquePathSpace(c *ebCase, s string) (string, bool) {
	end := strings.IndexAny(s, "?#")
	if end < 0 {
		return "", false
	}
	_, path, ok := strings.Cut(s[:end], ":")
	if !ok || path == "" || path[0] == '/' || !strings.HasSuffix(path, "%20") {
		return "", false
	}
	return s[:end-3] + " " + s[end:], true
}

// ebReadmeClasses checks that testdata/encoding-browser/README.md lists
// exactly ebClasses, each as a "### `name`" heading, and returns it.
func ebReadmeClasses(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(ebReadme)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^### `([^`]+)`").FindAllSubmatch(b, -1) {
		listed[string(m[1])] = true
	}
	for _, cl := range ebClasses {
		if !listed[cl.name] {
			t.Errorf("%s does not list the expected difference %q (a heading \"### `%s`\")", ebReadme, cl.name, cl.name)
		}
		delete(listed, cl.name)
	}
	for name := range listed {
		t.Errorf("%s lists %q, which is not one of ebClasses", ebReadme, name)
	}
	return string(b)
}

// ebReadmeFigures holds the README's figures to the run: "N pages, M
// links", "N `mailto:` links" (with a non-ASCII query, on pages whose
// output encoding is not UTF-8), and the count each class's section ends
// with ("N links.").
func ebReadmeFigures(t *testing.T, readme string, pages, links, mailto int, byClass map[string]int, sameChromium bool) {
	t.Helper()
	flat := strings.Join(strings.Fields(readme), " ")
	num := func(s string) int {
		n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		return n
	}
	if m := regexp.MustCompile(`(\d+) pages, ([\d,]+) links`).FindStringSubmatch(flat); m == nil {
		t.Errorf("%s: no \"N pages, M links\"", ebReadme)
	} else if num(m[1]) != pages || num(m[2]) != links {
		t.Errorf("%s says %s pages, %s links; the test made %d pages, %d links", ebReadme, m[1], m[2], pages, links)
	}
	if m := regexp.MustCompile("([\\d,]+) `mailto:` links").FindStringSubmatch(flat); m == nil {
		t.Errorf("%s: no \"N `mailto:` links\"", ebReadme)
	} else if num(m[1]) != mailto {
		t.Errorf("%s says %s `mailto:` links with a non-ASCII query on pages of another output encoding; the test made %d", ebReadme, m[1], mailto)
	}
	for _, cl := range ebClasses {
		_, sec, _ := strings.Cut(flat, "### `"+cl.name+"`")
		sec, _, _ = strings.Cut(sec, " ##")
		m := regexp.MustCompile(`([\d,]+) links\.`).FindAllStringSubmatch(sec, -1)
		if m == nil {
			t.Errorf("%s: the section on %s gives no count (\"N links.\")", ebReadme, cl.name)
		} else if got := m[len(m)-1][1]; num(got) != byClass[cl.name] {
			report := t.Errorf
			if !sameChromium {
				report = t.Logf
			}
			report("%s gives %s links for %s; this run has %d (with this Chromium)", ebReadme, got, cl.name, byClass[cl.name])
		}
	}
}

// ebReadmeChromium returns the Chromium version the README's counts are
// from ("Counts are from Chromium 148.0.7778.167."), or "".
func ebReadmeChromium(readme string) string {
	m := regexp.MustCompile(`Counts are from Chromium ([\d.]+\d)`).FindStringSubmatch(strings.Join(strings.Fields(readme), " "))
	if m == nil {
		return ""
	}
	return m[1]
}

// TestEncodingBrowserRecorded holds the classes to differences Chromium
// made (testdata/encoding-browser/recorded.tsv, written by
// TestEncodingBrowserDifferential's CANON_ENCODING_BROWSER_OUT): without
// Chromium, each is a difference from canon's answer that the classes it
// names, and no fewer, explain; each class has one, and the README lists
// each.
func TestEncodingBrowserRecorded(t *testing.T) {
	ebReadmeClasses(t)
	b, err := os.ReadFile("testdata/encoding-browser/recorded.tsv")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			t.Fatalf("line %d: %d fields", i+1, len(f))
		}
		var base, ref, href string
		for k, dst := range []*string{&base, &ref, &href} {
			if *dst, err = strconv.Unquote(f[2+k]); err != nil {
				t.Fatalf("line %d: field %d: %v", i+1, 3+k, err)
			}
		}
		enc, err := LookupEncoding(f[0])
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		l := ebLink{ref: ref, base: slices.Index(ebBases[:], base)}
		if l.base < 0 {
			t.Fatalf("line %d: base %q is none of the pages'", i+1, base)
		}
		_, l.query, _, _ = ebSplit(ref)
		c := ebCase{doc: f[0], link: l, enc: enc, href: href, ok: true}
		c.got, c.err = enc.NormalizeRef(base, ref, WHATWG)
		if c.err != nil || c.got == href {
			t.Errorf("line %d: NormalizeRef(%q, %q) in %s = %q, %v: not Chromium's difference %q", i+1, base, ref, f[0], c.got, c.err, href)
			continue
		}
		if got := strings.Join(c.explain(), "+"); got != f[1] {
			t.Errorf("line %d: %q in %s: Chromium's %q from canon's %q is explained by %q, recorded %q", i+1, ref, f[0], href, c.got, got, f[1])
		}
		for _, n := range strings.Split(f[1], "+") {
			seen[n] = true
		}
	}
	for _, cl := range ebClasses {
		if !seen[cl.name] {
			t.Errorf("recorded.tsv has no difference of the class %s", cl.name)
		}
	}
}
