module github.com/seed15588f71/canon/bench

go 1.26.0

replace github.com/seed15588f71/canon => ../

require (
	github.com/PuerkitoBio/purell v1.2.1
	github.com/nlnwa/whatwg-url v0.6.2
	github.com/seed15588f71/canon v0.0.0-00010101000000-000000000000
)

require (
	github.com/bits-and-blooms/bitset v1.20.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
