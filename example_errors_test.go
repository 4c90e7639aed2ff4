package canon_test

import (
	"errors"
	"fmt"

	"github.com/seed15588f71/canon"
)

// A program that names each input its own way (by its line number, as
// the canon command does) writes Detail, the error without the function
// and the input; the password is masked there too.
func ExampleError_Detail() {
	lines := []string{"http://example.com/", "http://user:secret@h:8x/", "http://h/%zz"}
	for i, line := range lines {
		_, err := canon.Normalize(line, canon.RFC3986)
		var e *canon.Error
		if errors.As(err, &e) {
			fmt.Printf("line %d: %s\n", i+1, e.Detail())
		}
	}
	// Output:
	// line 2: port: invalid character (at "x/")
	// line 3: path: invalid percent-encoding (at "%zz")
}
