package canon_test

import (
	"fmt"
	"strings"

	"github.com/seed15588f71/canon"
)

// A store of keys keeps the KeyVersion they were made under beside them,
// and makes them again when the running one differs: only keys made
// under one KeyVersion are comparable. Its parts are the profile's rule
// version, the Unicode version of the IDNA and NFC tables (which depends
// on the Go toolchain), and, for a profile with StripWWW, the Public
// Suffix List snapshot.
func ExampleProfile_KeyVersion() {
	// Keys stored under another KeyVersion must be made again.
	stored := "crawler/0 unicode-15.0.0" // as read from the store's metadata
	fmt.Println(stored != canon.Crawler.KeyVersion())

	parts := strings.Fields(canon.Archive.KeyVersion())
	name, _, _ := strings.Cut(parts[0], "/")
	fmt.Println(name)
	fmt.Println(parts[1] == "unicode-"+canon.UnicodeVersion)

	// A profile with StripWWW, which asks the Public Suffix List, names
	// its snapshot; Crawler keeps "www", and Archive strips it as the
	// Internet Archive does, without the list.
	www := canon.MustProfile(canon.ParseWHATWG, canon.StripWWW)
	fmt.Println(strings.HasPrefix(strings.Fields(www.KeyVersion())[2], "psl-"))
	fmt.Println(len(strings.Fields(canon.Crawler.KeyVersion())))

	// A profile built from steps has a KeyVersion of its own, derived
	// from its steps and their rule versions.
	p := canon.MustProfile(canon.LowercaseScheme, canon.LowercaseHost, canon.RemoveFragment)
	fmt.Println(strings.HasPrefix(p.KeyVersion(), "custom-"))
	// Output:
	// true
	// archive
	// true
	// true
	// 2
	// true
}
