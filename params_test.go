package canon

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// paramsRules interns r for a test; it fails the test on an error.
func paramsRules(t *testing.T, r Rules) *ruleSet {
	t.Helper()
	rs, err := internRules(r)
	if err != nil {
		t.Fatalf("internRules(%+v): %v", r, err)
	}
	return rs
}

func TestIsTracking(t *testing.T) {
	user := paramsRules(t, Rules{
		TrackingParams:   []string{"Ref", "source"},
		TrackingPrefixes: []string{"PK_", "mtm_"},
	})
	tests := []struct {
		name string
		r    *ruleSet
		want bool
	}{
		// The built-in list, any letter case.
		{"utm_source", nil, true},
		{"utm_medium", nil, true},
		{"UTM_Campaign", nil, true},
		{"utm_", nil, true},
		{"utm_social-type", nil, true},
		{"gclid", nil, true},
		{"GCLID", nil, true},
		{"dclid", nil, true},
		{"gbraid", nil, true},
		{"wbraid", nil, true},
		{"gclsrc", nil, true},
		{"fbclid", nil, true},
		{"FbClId", nil, true},
		{"msclkid", nil, true},
		{"yclid", nil, true},
		{"mc_cid", nil, true},
		{"mc_eid", nil, true},
		{"_ga", nil, true},
		{"_gl", nil, true},
		{"igshid", nil, true},
		{"twclid", nil, true},
		{"ttclid", nil, true},
		{"li_fat_id", nil, true},
		{"_hsenc", nil, true},
		{"_hsmi", nil, true},
		{"hsa_cam", nil, true},
		{"hsCtaTracking", nil, true},
		{"mkt_tok", nil, true},
		{"oly_anon_id", nil, true},
		{"oly_enc_id", nil, true},
		{"vero_id", nil, true},
		{"wickedid", nil, true},
		{"rb_clickid", nil, true},
		{"s_cid", nil, true},
		{"__hstc", nil, true},

		// Exact names only: neighbours and extensions are kept.
		{"utm", nil, false},
		{"utmsource", nil, false},
		{"xutm_source", nil, false},
		{"gclid2", nil, false},
		{"gcli", nil, false},
		{"_g", nil, false},
		{"_gac", nil, false},
		{"fbclid_", nil, false},
		{"hsa_", nil, false},
		{"hsa_other", nil, false},
		{"s_cid2", nil, false},
		{"", nil, false},
		// Escapes are not decoded: utm%5Fsource is not utm_source.
		{"utm%5Fsource", nil, false},
		{"gcl%69d", nil, false},

		// Names some sites use for content are not built in.
		{"ref", nil, false},
		{"ref_src", nil, false},
		{"referrer", nil, false},
		{"source", nil, false},
		{"campaign", nil, false},
		{"cid", nil, false},
		{"si", nil, false},
		{"spm", nil, false},
		{"var", nil, false},
		{"__s", nil, false},
		{"pk_campaign", nil, false},
		{"mtm_source", nil, false},
		{"q", nil, false},
		{"page", nil, false},
		{"id", nil, false},

		// User rules: names and prefixes, any letter case, on top of
		// the built-in list.
		{"ref", user, true},
		{"REF", user, true},
		{"source", user, true},
		{"Source", user, true},
		{"pk_campaign", user, true},
		{"PK_KWD", user, true},
		{"pk_", user, true},
		{"mtm_source", user, true},
		{"gclid", user, true},
		{"utm_term", user, true},
		{"refs", user, false},
		{"re", user, false},
		{"pk", user, false},
		{"sources", user, false},
		{"campaign", user, false},
		{"", user, false},
	}
	for _, tt := range tests {
		if got := tt.r.isTracking([]byte(tt.name)); got != tt.want {
			t.Errorf("isTracking(%q) with rules %v = %v, want %v", tt.name, rulesText(tt.r), got, tt.want)
		}
	}
}

func rulesText(r *ruleSet) string {
	if r == nil {
		return "none"
	}
	return r.text
}

// Every entry of the built-in list is found by isTracking, in upper case
// too, and prefix entries match what follows them.
func TestIsTrackingBuiltinList(t *testing.T) {
	var r *ruleSet
	for _, p := range DefaultTrackingParams() {
		for _, name := range []string{p.Name, strings.ToUpper(p.Name)} {
			if !r.isTracking([]byte(name)) {
				t.Errorf("isTracking(%q) = false, want true (built-in %+v)", name, p)
			}
		}
		if p.Prefix {
			if name := p.Name + "x"; !r.isTracking([]byte(name)) {
				t.Errorf("isTracking(%q) = false, want true (prefix %q)", name, p.Name)
			}
		} else {
			if name := p.Name + "x"; r.isTracking([]byte(name)) {
				t.Errorf("isTracking(%q) = true, want false (exact %q)", name, p.Name)
			}
		}
		if name := p.Name[:len(p.Name)-1]; r.isTracking([]byte(name)) {
			t.Errorf("isTracking(%q) = true, want false (only %q is listed)", name, p.Name)
		}
	}
}

func TestDefaultTrackingParams(t *testing.T) {
	list := DefaultTrackingParams()
	if len(list) == 0 {
		t.Fatal("DefaultTrackingParams() is empty")
	}
	for i, p := range list {
		if p.Name == "" {
			t.Errorf("entry %d: empty Name", i)
		}
		if p.Name != strings.ToLower(p.Name) {
			t.Errorf("entry %q: Name is not lowercase", p.Name)
		}
		if strings.TrimSpace(p.Source) == "" {
			t.Errorf("entry %q: no Source", p.Name)
		}
		// A name must be one that Rules would accept.
		if _, err := ruleNames("TrackingParams", []string{p.Name}); err != nil {
			t.Errorf("entry %q: %v", p.Name, err)
		}
		if i > 0 && list[i-1].Name >= p.Name {
			t.Errorf("entries %q, %q: not sorted or not unique", list[i-1].Name, p.Name)
		}
		if p.Prefix && !strings.HasSuffix(p.Name, "_") {
			t.Errorf("entry %q: a prefix should end in \"_\"", p.Name)
		}
	}
	// A prefix must not make an exact entry redundant, nor cover another
	// prefix.
	for _, p := range list {
		if !p.Prefix {
			continue
		}
		for _, q := range list {
			if q.Name != p.Name && strings.HasPrefix(q.Name, p.Name) {
				t.Errorf("entry %q is covered by prefix %q", q.Name, p.Name)
			}
		}
	}
	// The names the package promises.
	for _, name := range []string{
		"utm_", "gclid", "dclid", "gbraid", "wbraid", "gclsrc", "fbclid",
		"msclkid", "yclid", "mc_cid", "mc_eid", "_ga", "_gl", "igshid",
		"twclid", "ttclid", "li_fat_id", "_hsenc", "_hsmi", "mkt_tok",
		"oly_anon_id", "oly_enc_id", "vero_id", "wickedid", "rb_clickid",
		"s_cid",
	} {
		i := slices.IndexFunc(list, func(p TrackingParam) bool { return p.Name == name })
		if i < 0 {
			t.Errorf("%q is not in DefaultTrackingParams()", name)
		} else if list[i].Prefix != (name == "utm_") {
			t.Errorf("%q: Prefix = %v", name, list[i].Prefix)
		}
	}
	// Names kept out on purpose (see builtinTracking).
	for _, name := range []string{"ref", "source", "campaign", "cid", "si", "var", "__s", "pk_", "hsa_"} {
		if slices.ContainsFunc(list, func(p TrackingParam) bool { return p.Name == name }) {
			t.Errorf("%q is in DefaultTrackingParams(), it names content on some sites", name)
		}
	}
	// A copy: changing it does not change the list isTracking reads.
	list[0].Name = "changed"
	_ = append(list[:1], list[2:]...) // shrinking the copy must not shrink the list
	again := DefaultTrackingParams()
	if again[0].Name == "changed" || len(again) != len(builtinTracking) {
		t.Error("DefaultTrackingParams() returned the built-in list, not a copy")
	}
}

func TestIsSessionID(t *testing.T) {
	site := paramsRules(t, Rules{SessionParams: []string{"S", "sessid", "zenid"}})
	tests := []struct {
		name, value string
		r           *ruleSet
		want        bool
	}{
		// urlcanon aggressive.json (and Heritrix's tests).
		{"jsessionid", "0123456789abcdefghijklemopqrstuv", nil, true},
		{"PHPSESSID", "9682993c8daa2c5497996114facdc805", nil, true},
		{"sid", "9682993c8daa2c5497996114facdc805", nil, true},
		{"ASPSESSIONIDAQBSDSRT", "EOHBLBDDPFCLHKPGGKLILNAM", nil, true},
		{"CFID", "12412453", nil, true},
		{"CFTOKEN", "15501799", nil, true},
		{"CFID", "3304324", nil, true},
		{"CFTOKEN", "57491900", nil, true},
		{"jsessionid", "a63098d96360$B0$D9$A", nil, true},
		// Heritrix StripSessionCFIDsTest and StripSessionIDsTest.
		{"CFID", "1169580", nil, true},
		{"CFTOKEN", "48630702", nil, true},
		{"CFTOKEN", "2D89F5AF-3048-2957-DA4EE4B6B13661AB", nil, true},
		{"CFTOKEN", "2AE13EEE-3048-85B0-56CEDAAB0ACA44B8", nil, true},
		{"aspsessionidABCDEFGH", "ABCDEFGHIJKLMNOPQRSTUVWX", nil, true},
		{"phpsessid", "0123456789abcdefghijklemopqrstuv", nil, true},
		// ColdFusion "Use UUID for cftoken": 16 hex digits, "-", a UUID.
		{"cftoken", "3ee6c307a7278c7b-5278BEA6-1030-C351-3E33390F2EAD02B9", nil, true},
		// Other servlet containers' ids.
		{"jsessionid", "E85FAC04E331FFCA55549B10B7C7A4FA.node1", nil, true},
		{"jsessionid", "BrYx4hyPZ4VSP9Wo4eU0OrqmhXMLFONbRHnpLFwRKZ9MSaf6wvYj!-314662473", nil, true},
		{"jsessionid", "deadbeef:deadbeed", nil, true},
		// PHP 7.1+ ids: 26 of [0-9a-v], or [0-9A-Za-z,-].
		{"PHPSESSID", "k3v0ngt1a0b5r8u2mlq4e6ci9d", nil, true},
		{"PHPSESSID", "Ab,cD-3fGhIjKlMnOpQrStUv", nil, true},
		{"sessionid", "9682993c8daa2c5497996114facdc805", nil, true},

		// Case-insensitive names and values.
		{"JSESSIONID", "0123456789ABCDEFGHIJKLEMOPQRSTUV", nil, true},
		{"JSessionId", "0123456789abcdefghijklemopqrstuv", nil, true},
		{"phpsessid", "9682993C8DAA2C5497996114FACDC805", nil, true},
		{"SID", "9682993c8daa2c5497996114facdc805", nil, true},
		{"SessionID", "9682993c8daa2c5497996114facdc805", nil, true},
		{"AspSessionIdAqBsDsRt", "eohblbddpfclhkpggklilnam", nil, true},
		{"cfid", "12412453", nil, true},
		{"CfToken", "15501799", nil, true},

		// Must survive: a short or empty value, a word, a number.
		{"sid", "3", nil, false},
		{"sid", "", nil, false},
		{"sid", "123456789012345", nil, false},
		{"sid", "1234567890123456789", nil, false}, // digits only: a status id
		{"sid", "abcdefghijklmnopqrstuvwxyz", nil, false},
		{"sid", "9682993c8daa2c54-97996114facdc805", nil, false},
		{"sid", "9682993c8daa2c5497996114facdc80%35", nil, false},
		{"side", "1", nil, false},
		{"side", "9682993c8daa2c5497996114facdc805", nil, false},
		{"sidebar", "9682993c8daa2c5497996114facdc805", nil, false},
		{"pagesid", "9682993c8daa2c5497996114facdc805", nil, false},
		{"sid2", "9682993c8daa2c5497996114facdc805", nil, false},
		{"s", "9682993c8daa2c5497996114facdc805", nil, false},
		{"jsessionid", "", nil, false},
		{"jsessionid", "abc123", nil, false},
		{"jsessionid", "$$$$$$$$$$$$", nil, false},
		{"jsessionid", "0123456789abcdef/ghij", nil, false},
		{"jsessionid", "0123456789abcdef%20ghij", nil, false},
		{"jsessionids", "0123456789abcdefghijklemopqrstuv", nil, false},
		{"xjsessionid", "0123456789abcdefghijklemopqrstuv", nil, false},
		{"PHPSESSID", "short", nil, false},
		{"PHPSESSID", "", nil, false},
		{"PHPSESSID", "0123456789abcde", nil, false},
		{"PHPSESSID", "0123456789abcdef0123.", nil, false},
		{"phpsessid2", "9682993c8daa2c5497996114facdc805", nil, false},
		{"sessionid", "12345", nil, false}, // a forum thread number
		{"sessionid", "2024", nil, false},
		{"sessionid", "", nil, false},
		{"sessionids", "9682993c8daa2c5497996114facdc805", nil, false},
		{"session", "9682993c8daa2c5497996114facdc805", nil, false},
		{"ASPSESSIONIDAQBSDSR", "EOHBLBDDPFCLHKPGGKLILNAM", nil, false},
		{"ASPSESSIONIDAQBSDSRTX", "EOHBLBDDPFCLHKPGGKLILNAM", nil, false},
		{"ASPSESSIONIDAQBSDSR1", "EOHBLBDDPFCLHKPGGKLILNAM", nil, false},
		{"ASPSESSIONIDAQBSDSRT", "EOHBLBDD", nil, false},
		{"ASPSESSIONIDAQBSDSRT", "", nil, false},
		{"ASPSESSIONID", "EOHBLBDDPFCLHKPGGKLILNAM", nil, false},
		{"cfid", "3", nil, false},
		{"cfid", "123", nil, false},
		{"cfid", "", nil, false},
		{"cfid", "12a45678", nil, false},
		{"cftoken", "1", nil, false},
		{"cftoken", "abcdefgh", nil, false},
		{"cftoken", "12345", nil, false},
		{"cftoken", "1234_5678", nil, false},
		{"cfids", "12412453", nil, false},
		{"", "9682993c8daa2c5497996114facdc805", nil, false},
		{"id", "9682993c8daa2c5497996114facdc805", nil, false},
		{"token", "9682993c8daa2c5497996114facdc805", nil, false},

		// User session names: any value, any letter case; the built-in
		// rules still apply beside them.
		{"s", "3", site, true},
		{"S", "", site, true},
		{"sessid", "x", site, true},
		{"SESSID", "9682993c8daa2c5497996114facdc805", site, true},
		{"zenid", "abc", site, true},
		{"sid", "9682993c8daa2c5497996114facdc805", site, true},
		{"sid", "3", site, false},
		{"ss", "3", site, false},
		{"sess", "3", site, false},
		{"zenids", "3", site, false},
	}
	for _, tt := range tests {
		if got := tt.r.isSessionID([]byte(tt.name), []byte(tt.value)); got != tt.want {
			t.Errorf("isSessionID(%q, %q) with rules %v = %v, want %v", tt.name, tt.value, rulesText(tt.r), got, tt.want)
		}
	}
}

func TestCutPathSessionIDs(t *testing.T) {
	site := paramsRules(t, Rules{SessionParams: []string{"sessid"}})
	const id = "4hqa0555fwsecu455xqckv45"
	tests := []struct {
		path, want string
		r          *ruleSet
	}{
		// surt.json stripPathSessionId and urlcanon aggressive.json.
		{"/(S(" + id + "))/mileg.aspx", "/mileg.aspx", nil},
		{"/(" + id + ")/mileg.aspx", "/mileg.aspx", nil},
		{"/(a(" + id + ")S(" + id + ")f(" + id + "))/mileg.aspx", "/mileg.aspx", nil},
		{"/photos/36050182@N05/", "/photos/36050182@N05/", nil},
		{"/something/;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA", "/something/", nil},

		// Path parameters.
		{"/shop/item.do;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA", "/shop/item.do", nil},
		{"/shop/item.do;JSESSIONID=E85FAC04E331FFCA55549B10B7C7A4FA.node1", "/shop/item.do", nil},
		{"/a;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA/b", "/a/b", nil},
		{"/a;x=1;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA;y=2/b", "/a;x=1;y=2/b", nil},
		{"/a;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA;jsessionid=0123456789abcdefghijklemopqrstuv", "/a", nil},
		{"/index.php;phpsessid=9682993c8daa2c5497996114facdc805", "/index.php", nil},
		{"/page;sid=9682993c8daa2c5497996114facdc805", "/page", nil},
		{"/page;cfid=12412453;cftoken=15501799", "/page", nil},
		{";jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA", "", nil},
		// Path parameters that stay.
		{"/page;sid=3", "/page;sid=3", nil},
		{"/a;jsessionid=", "/a;jsessionid=", nil},
		{"/a;jsessionid", "/a;jsessionid", nil},
		{"/a;jsessionid=short", "/a;jsessionid=short", nil},
		{"/a;side=1;v=2", "/a;side=1;v=2", nil},
		{"/a;pagesid=9682993c8daa2c5497996114facdc805", "/a;pagesid=9682993c8daa2c5497996114facdc805", nil},
		{"/a;", "/a;", nil},
		{"/a;;b", "/a;;b", nil},
		{"/a%3Bjsessionid=E85FAC04E331FFCA55549B10B7C7A4FA", "/a%3Bjsessionid=E85FAC04E331FFCA55549B10B7C7A4FA", nil},
		{"/dir;v=1.2/file", "/dir;v=1.2/file", nil},
		// User session names in the path.
		{"/a;sessid=1/b", "/a/b", site},
		{"/a;SessId=x", "/a", site},
		{"/a;sessid=1/b", "/a;sessid=1/b", nil},

		// ASP.NET cookieless segments.
		{"/app/(S(" + id + "))/default.aspx", "/app/default.aspx", nil},
		{"/(S(" + id + "))/", "/", nil},
		{"/(S(" + id + "))/images/logo.gif", "/images/logo.gif", nil},
		{"/(" + id + ")/images/logo.gif", "/images/logo.gif", nil},
		{"/(" + strings.ToUpper(id) + ")/x.aspx", "/x.aspx", nil},
		{"/(s(" + id + "))/x.aspx", "/x.aspx", nil},
		{"/(X(1)S(" + id + "))/x.aspx", "/x.aspx", nil},
		{"/(A(xO4JuHrXyQEkAAAAZjI0NzhlMmMtMTU2ZC00N2E1LWJlYjUtZjI4YzZlMjlhM2M00)S(" + id + "))/x.aspx", "/x.aspx", nil},
		{"/(F(7A4F11D3E8C2B0A94F11D3E8C2B0A94F11D3E8C2B0A9))/x.aspx", "/x.aspx", nil},
		{"/(S(" + id + "))/(S(" + id + "))/x.aspx", "/x.aspx", nil},
		{"/a/(S(" + id + "))/b;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA", "/a/b", nil},
		// Segments that stay.
		{"/(c)/", "/(c)/", nil},
		{"/(2024)/", "/(2024)/", nil},
		{"/(2024)/report.aspx", "/(2024)/report.aspx", nil},
		{"/wiki/Foo_(bar)/", "/wiki/Foo_(bar)/", nil},
		{"/wiki/(bar)", "/wiki/(bar)", nil},
		{"/(a(1))/", "/(a(1))/", nil},
		{"/(S(short))/x.aspx", "/(S(short))/x.aspx", nil},
		{"/(S(" + id + "))", "/(S(" + id + "))", nil},                           // no "/" after it
		{"/(" + id + ")", "/(" + id + ")", nil},                                 // no "/" after it
		{"/x(S(" + id + "))/y", "/x(S(" + id + "))/y", nil},                     // not a whole segment
		{"/(S(" + id + "))x/y", "/(S(" + id + "))x/y", nil},                     // not a whole segment
		{"/(S(" + id + ")/y", "/(S(" + id + ")/y", nil},                         // unbalanced
		{"/(S(" + id + ")))/y", "/(S(" + id + ")))/y", nil},                     // unbalanced
		{"/(SS(" + id + "))/y", "/(SS(" + id + "))/y", nil},                     // two letters
		{"/(1(" + id + "))/y", "/(1(" + id + "))/y", nil},                       // not a letter
		{"/(S(" + id + ")x)/y", "/(S(" + id + ")x)/y", nil},                     // junk after a ticket
		{"/(S(" + id + ".x))/y", "/(S(" + id + ".x))/y", nil},                   // not a ticket character
		{"/(507f1f77bcf86cd799439011)/y", "/(507f1f77bcf86cd799439011)/y", nil}, // hex, has 6-9
		{"/(" + id + "6)/y", "/(" + id + "6)/y", nil},                           // 25 characters
		{"/(c);jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA/y", "/(c)/y", nil},
		// A ticket segment once its path parameter is gone.
		{"/(S(" + id + "));jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA/y", "/y", nil},
		{"(S(" + id + "))/y", "(S(" + id + "))/y", nil}, // not after a "/"
		{"", "", nil},
		{"/", "/", nil},
		{"*", "*", nil},
	}
	for _, tt := range tests {
		b := []byte(tt.path)
		n := tt.r.cutPathSessionIDs(b, false)
		got := string(b[:n])
		if got != tt.want {
			t.Errorf("cutPathSessionIDs(%q) with rules %v = %q, want %q", tt.path, rulesText(tt.r), got, tt.want)
		}
		// Cutting again changes nothing.
		if n2 := tt.r.cutPathSessionIDs(b[:n], false); string(b[:n2]) != got {
			t.Errorf("cutPathSessionIDs(%q) = %q, and again %q", tt.path, got, b[:n2])
		}
	}
}

// cutPathSessionIDs is idempotent and never grows a path, on paths made of
// the pieces it looks at.
func TestCutPathSessionIDsIdempotent(t *testing.T) {
	const id = "4hqa0555fwsecu455xqckv45"
	pieces := []string{
		"/", "/", "/", ";", "=", "(", ")", "a", "S", "x", "1", "jsessionid", "sid",
		"(S(" + id + "))", "(" + id + ")", "S(" + id + ")",
		";jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA", ";sid=3", ";cfid=12412453",
		"E85FAC04E331FFCA55549B10B7C7A4FA",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var r *ruleSet
	for range 20000 {
		var sb strings.Builder
		for range rng.IntN(8) {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		in := sb.String()
		b := []byte(in)
		n := r.cutPathSessionIDs(b, false)
		once := string(b[:n])
		n2 := r.cutPathSessionIDs(b[:n], false)
		if twice := string(b[:n2]); twice != once {
			t.Fatalf("cutPathSessionIDs(%q) = %q, and again %q", in, once, twice)
		}
		if len(once) > len(in) {
			t.Fatalf("cutPathSessionIDs(%q) = %q, longer", in, once)
		}
	}
}

// paramsLoadURLCanon reads a file of testdata/urlcanon (pure ASCII on
// disk, so its strings are the bytes; see testdata/urlcanon/README.md).
func paramsLoadURLCanon(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "urlcanon", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// surt.json's stripPathSessionId section (internetarchive/surt's
// test_stripPathSessionID, from IAURLCanonicalizerTest.java): a path, with
// a query in one case, and the path with the session id removed.
func TestCutPathSessionIDsSURT(t *testing.T) {
	var sections map[string]map[string]string
	paramsLoadURLCanon(t, "surt.json", &sections)
	rows := sections["stripPathSessionId"]
	if len(rows) != 4 {
		t.Fatalf("surt.json stripPathSessionId: %d rows, want 4", len(rows))
	}
	var r *ruleSet
	for in, want := range rows {
		path, query, _ := strings.Cut(in, "?")
		b := []byte(path)
		got := string(b[:r.cutPathSessionIDs(b, false)])
		if query != "" {
			got += "?" + query
		}
		if got != want {
			t.Errorf("cutPathSessionIDs(%q) = %q, want %q", in, got, want)
		}
	}
}

// urlcanon's aggressive.json: in every input with a query, a parameter is
// gone from the expected URL (the aggressive profile lowercases the query
// first) exactly when isSessionID holds for it. In every input whose path
// has a session id, cutPathSessionIDs leaves the expected path (which the
// profile also lowercases and strips of a trailing "/").
func TestSessionIDsURLCanonAggressive(t *testing.T) {
	var rows map[string]string
	paramsLoadURLCanon(t, "aggressive.json", &rows)
	if len(rows) != 42 {
		t.Fatalf("aggressive.json: %d rows, want 42", len(rows))
	}
	var r *ruleSet
	var queries, removed, paths int
	for in, want := range rows {
		inPath, inQuery := paramsSplitURL(strings.TrimSpace(in))
		wantPath, wantQuery := paramsSplitURL(want)
		if inQuery != "" {
			queries++
			kept := map[string]bool{}
			for _, p := range strings.Split(wantQuery, "&") {
				kept[p] = true
			}
			for _, p := range strings.Split(inQuery, "&") {
				if p == "" {
					continue
				}
				name, value, _ := strings.Cut(p, "=")
				got := r.isSessionID([]byte(name), []byte(value))
				if gone := !kept[strings.ToLower(p)]; got != gone {
					t.Errorf("isSessionID(%q, %q) = %v, want %v (%s -> %s)", name, value, got, gone, in, want)
				}
				if got {
					removed++
				}
			}
		}
		if strings.ContainsAny(inPath, "(;") {
			paths++
			b := []byte(inPath)
			got := strings.ToLower(string(b[:r.cutPathSessionIDs(b, false)]))
			if len(got) > 1 {
				got = strings.TrimSuffix(got, "/")
			}
			if got != wantPath {
				t.Errorf("cutPathSessionIDs(%q) = %q, want %q (%s -> %s)", inPath, got, wantPath, in, want)
			}
		}
	}
	if removed != 9 || paths != 4 {
		t.Errorf("aggressive.json: %d session parameters removed, %d paths with ids; want 9, 4 (queries: %d)", removed, paths, queries)
	}
}

// paramsSplitURL returns the path and query of a URL of aggressive.json,
// with or without a scheme.
func paramsSplitURL(u string) (path, query string) {
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	i := strings.IndexAny(u, "/?")
	if i < 0 {
		return "", ""
	}
	path, query, _ = strings.Cut(u[i:], "?")
	return path, query
}

func TestParamsNoAllocs(t *testing.T) {
	rs := paramsRules(t, Rules{
		TrackingParams:   []string{"ref", "source"},
		TrackingPrefixes: []string{"pk_"},
		SessionParams:    []string{"sessid"},
	})
	names := [][]byte{[]byte("utm_source"), []byte("GCLID"), []byte("pk_kwd"), []byte("Source"), []byte("page")}
	pairs := [][2][]byte{
		{[]byte("jsessionid"), []byte("0123456789abcdefghijklemopqrstuv")},
		{[]byte("ASPSESSIONIDAQBSDSRT"), []byte("EOHBLBDDPFCLHKPGGKLILNAM")},
		{[]byte("sid"), []byte("3")},
		{[]byte("SessID"), []byte("x")},
		{[]byte("cftoken"), []byte("2D89F5AF-3048-2957-DA4EE4B6B13661AB")},
	}
	const id = "4hqa0555fwsecu455xqckv45"
	paths := []string{
		"/(a(" + id + ")S(" + id + ")f(" + id + "))/mileg.aspx",
		"/(" + id + ")/mileg.aspx",
		"/something/;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA",
		"/a;sessid=1;x=2/(c)/b",
	}
	buf := make([]byte, 0, 256)
	sink := 0
	for _, r := range []*ruleSet{nil, rs} {
		if a := allocsPerRun(100, func() {
			for _, n := range names {
				if r.isTracking(n) {
					sink++
				}
			}
		}); a != 0 {
			t.Errorf("isTracking: %v allocations per run, want 0", a)
		}
		if a := allocsPerRun(100, func() {
			for _, p := range pairs {
				if r.isSessionID(p[0], p[1]) {
					sink++
				}
			}
		}); a != 0 {
			t.Errorf("isSessionID: %v allocations per run, want 0", a)
		}
		if a := allocsPerRun(100, func() {
			for _, p := range paths {
				buf = append(buf[:0], p...)
				sink += r.cutPathSessionIDs(buf, false)
			}
		}); a != 0 {
			t.Errorf("cutPathSessionIDs: %v allocations per run, want 0", a)
		}
	}
	_ = sink
}
