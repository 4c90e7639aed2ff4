// Package bench compares canon with the copy and lowercase loops, net/url,
// purell and nlnwa/whatwg-url over the real-URL corpus, in a module of its
// own so that canon's go.mod needs only golang.org/x/net and
// golang.org/x/text. Run it with ./run.sh (see README.md).
package bench
