package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/seed15588f71/canon"
)

// A batch is a run of consecutive input lines, normalized by one worker
// and written by the writer in sequence order. Batches are what bounds
// memory: the batches in flight are bounded by their number and their
// bytes (window), and each holds at most maxBatchLines lines.
//
// The reader reads the input straight into data, whole lines only (the
// partial line at the end of a read moves to the next batch), so that
// the bytes are copied once on the way in; the worker splits data into
// lines that point into it. Those strings live as long as the batch, so
// anything kept longer (the -u keys and inputs) is cloned.
type batch struct {
	seq    int
	data   []byte      // whole lines, each ending in "\n" except perhaps the last
	mapEnd int         // for a mapped input, where data ends in the mapping; else 0
	long   bool        // the batch is one line longer than canon.MaxLength, not kept
	ends   int         // the line ends ("\n") in data, as the reader counted them
	weight int         // its weight in the window (processParallel)
	nlines int         // the number of lines
	lines  []string    // -u: the lines of data, without line endings
	keys   []string    // -u: the key of each line, "" when it failed or is blank
	out    []byte      // rendered output (not in -u mode)
	errAt  []int       // the index in the batch of each failing line
	errs   []lineError // and its error; the writer, which knows line numbers, prints them
	nums   []lineRef   // -format jsonl: where out lacks the line number of a failure
	skips  int         // lines skipped for their scheme (-schemes)
}

// A lineRef is a place in batch.out where the writer inserts the number
// of a line: only it knows where the batch starts in the input.
type lineRef struct {
	at   int // offset in out
	line int // index of the line in the batch
}

// batchBytes is the size of the reads, and so of most batches.
const batchBytes = 256 << 10

// pooledBytes is the largest buffer batchPool keeps.
const pooledBytes = 8 * batchBytes

// batchPool recycles batches, whose buffers are most of the garbage the
// command would otherwise make.
var batchPool = sync.Pool{New: func() any { return new(batch) }}

func newBatch(seq int) *batch {
	b := batchPool.Get().(*batch)
	*b = batch{seq: seq, data: b.data[:0], lines: b.lines[:0], keys: b.keys[:0], out: b.out[:0], errAt: b.errAt[:0], errs: b.errs[:0], nums: b.nums[:0]}
	return b
}

func process(cfg *config, in io.Reader, stdout, stderr io.Writer) int {
	w := newOutput(cfg, stdout, stderr)
	if f, ok := in.(*os.File); ok {
		if w.mapped = prepareInput(f); w.mapped != nil {
			defer w.mapped.close()
			// A file that shrinks under the mapping faults where reading
			// it would have returned less; each goroutine that touches
			// the mapping turns the fault into an error.
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer catchFault(stderr)
		}
	}
	if cfg.rekey || cfg.inputs {
		var code int
		if in, code = readIndexStart(cfg, in, w); code != exitOK {
			return code
		}
	} else if cfg.header {
		mark := ""
		if cfg.format == "expressions" {
			mark = expressionsMark
		}
		writeIndexHeader(w.out, cfg.profile, mark)
	}
	var err error
	if cfg.workers == 1 {
		// One worker: read, normalize and write in turn, with no
		// hand-offs between goroutines.
		err = readInput(cfg, in, w.mapped, func(b *batch) {
			normalizeBatch(cfg, b)
			w.write(b)
		})
	} else {
		err = processParallel(cfg, in, w)
	}
	return w.finish(err)
}

// indexHeader starts the first line of a -format tsv -header output:
// "#canon " and the KeyVersion of the profile that made its keys. It
// names the version -rekey migrates from, and says that the input fields
// are escaped (appendTSVField); a file without it is read as the tsv the
// command writes without -header, whose fields are not.
const indexHeader = "#canon "

func writeIndexHeader(out *bufio.Writer, p canon.Profile, mark string) {
	out.WriteString(indexHeader)
	out.WriteString(p.KeyVersion())
	out.WriteString(mark)
	out.WriteByte('\n')
}

// expressionsMark ends the header of -format expressions -header, after
// the key version: its lines are an input's lookup expressions, one a
// line and none for an input without a key, not "input TAB key" lines.
// -rekey refuses such an index (it cannot tell which key an input had
// from its expressions, nor see the inputs that had none), and -inputs
// prints the input of each of its lines. No key version has the word.
const expressionsMark = " expressions"

// keyVersionProfile returns the profile part of a KeyVersion: "crawler"
// of "crawler/3+rules-4a7e… unicode-15.0.0", "custom" of a profile made
// with steps.
func keyVersionProfile(kv string) string {
	if i := strings.IndexAny(kv, "/- "); i >= 0 {
		return kv[:i]
	}
	return kv
}

// catchFault, deferred, ends the command with an error when its
// goroutine faulted on the mapped input: the file shrank while it was
// read. Any other panic goes on.
func catchFault(stderr io.Writer) {
	r := recover()
	if r == nil {
		return
	}
	if _, ok := r.(interface{ Addr() uintptr }); ok {
		fmt.Fprintln(stderr, "canon: reading input: the file shrank while it was read")
		os.Exit(exitProblem)
	}
	panic(r)
}

// processParallel normalizes batches on cfg.workers goroutines while one
// reads and the caller's goroutine writes them back in input order. The
// batches in flight are at most 4 per worker, and their bytes are bounded
// by a budget that -j hardly changes (window).
func processParallel(cfg *config, in io.Reader, w *output) error {
	work := make(chan *batch, cfg.workers)
	done := make(chan *batch, cfg.workers)
	win := newWindow(cfg.workers)
	if windowHook != nil {
		windowHook(win)
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(work)
		if w.mapped != nil {
			debug.SetPanicOnFault(true)
			defer catchFault(w.stderr)
		}
		readErr <- readInput(cfg, in, w.mapped, func(b *batch) {
			win.acquire(b)
			work <- b
		})
	}()
	var wg sync.WaitGroup
	for i := 0; i < cfg.workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if w.mapped != nil {
				debug.SetPanicOnFault(true)
				defer catchFault(w.stderr)
			}
			for b := range work {
				normalizeBatch(cfg, b)
				win.reweigh(b)
				done <- b
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	pending := map[int]*batch{}
	next := 0
	for b := range done {
		pending[b.seq] = b
		for b := pending[next]; b != nil; b = pending[next] {
			delete(pending, next)
			next++
			weight := b.weight // (write gives b back to the pool)
			w.write(b)
			win.release(weight)
		}
	}
	return <-readErr
}

// readInput passes the input to send in numbered batches: the arguments
// as one batch, or the lines of the mapped input m, or those of in.
func readInput(cfg *config, in io.Reader, m *mappedInput, send func(*batch)) error {
	seq := 0
	next := func() *batch { b := newBatch(seq); seq++; return b }
	if in == nil {
		b := next()
		for _, u := range cfg.urls {
			b.data = append(b.data, u...)
			b.data = append(b.data, '\n')
		}
		b.ends = len(cfg.urls)
		send(b)
		return nil
	}
	if m != nil {
		readMapped(m, maxLineBytes(cfg), next, send)
		return nil
	}
	return readBatches(in, maxLineBytes(cfg), next, send)
}

// maxLineBytes is the longest line the readers keep, with a CR before
// its LF: a URL of canon.MaxLength, or with -rekey and -inputs a line of
// an index, maxIndexLineBytes. The readers keep lines up to it and a few
// hundred KiB longer (a mapped line that a batch holds whole); normalizeBatch
// and rekeyBatch fail every line over the limit, whichever reader read it.
func maxLineBytes(cfg *config) int {
	if cfg.rekey || cfg.inputs {
		return maxIndexLineBytes + 1
	}
	return canon.MaxLength + 1
}

// maxIndexLineBytes is the longest line -rekey and -inputs read, without
// its line end, from a file, a pipe or -f alike: a line -format tsv
// -header writes for an input of canon.MaxLength, its input escaped (two
// bytes for each at most: appendTSVField), a TAB and its key.
const maxIndexLineBytes = 2*canon.MaxLength + 1 + maxKeyBytes

// maxKeyBytes bounds the length of a key of an input of canon.MaxLength
// bytes (the library's tests hold every key to it).
const maxKeyBytes = 3*canon.MaxLength + 16

// output writes batches in order: keys (or the -u state), errors on
// standard error with their line numbers, and progress.
type output struct {
	cfg           *config
	out           *bufio.Writer
	stderr        io.Writer
	prog          *progress
	uniq          *uniqueKeys
	mapped        *mappedInput // the input, when it is a mapped file
	lines, failed int
	skipped       int // lines with a scheme -schemes leaves out
	msg           []byte
}

func newOutput(cfg *config, stdout, stderr io.Writer) *output {
	w := &output{cfg: cfg, out: bufio.NewWriterSize(stdout, 64<<10), stderr: stderr, prog: newProgress(cfg, stderr)}
	if cfg.unique {
		w.uniq = &uniqueKeys{index: map[string]int{}}
	}
	return w
}

func (w *output) write(b *batch) {
	if len(b.errs) > 0 && !w.cfg.quiet {
		// Flushed first, so that a terminal shows each error after the
		// output of the lines before it.
		w.out.Flush()
		w.prog.clear()
		w.msg = w.msg[:0]
		for i, e := range b.errs {
			w.msg = append(w.msg, "line "...)
			w.msg = strconv.AppendInt(w.msg, int64(w.lines+b.errAt[i]+1), 10)
			w.msg = append(w.msg, ": "...)
			w.msg = append(w.msg, e.msg...)
			w.msg = append(w.msg, '\n')
		}
		w.stderr.Write(w.msg)
	}
	switch {
	case w.uniq != nil:
		w.uniq.add(w.cfg, b, w.out)
	case len(b.nums) > 0:
		var num [20]byte
		prev := 0
		for _, r := range b.nums {
			w.out.Write(b.out[prev:r.at])
			w.out.Write(strconv.AppendInt(num[:0], int64(w.lines+r.line+1), 10))
			prev = r.at
		}
		w.out.Write(b.out[prev:])
	default:
		w.out.Write(b.out)
	}
	w.lines += b.nlines
	w.failed += len(b.errs)
	w.skipped += b.skips
	if b.mapEnd > 0 {
		// Batches are written in order, so the mapping up to here is
		// done with (-u keeps copies).
		w.mapped.release(b.mapEnd)
		b.data = nil // read-only, and unmapped at the end
	}
	// With workers, the pool keeps buffers of ordinary batches: those of
	// a long line, or of a batch whose output grew large, would stay
	// allocated with every batch that takes them, as many as are in
	// flight. One worker has one batch at a time, which keeps its own.
	if w.cfg.workers > 1 && cap(b.data) > pooledBytes {
		b.data = nil
	}
	if w.cfg.workers > 1 && cap(b.out) > pooledBytes {
		b.out = nil
	}
	batchPool.Put(b)
	w.prog.update(w.lines, w.failed)
}

func (w *output) finish(readErr error) int {
	if w.uniq != nil && w.cfg.count {
		w.uniq.writeCounts(w.cfg, w.out)
	}
	werr := w.out.Flush()
	w.prog.finish(w.lines, w.failed)
	if readErr != nil {
		fmt.Fprintln(w.stderr, "canon: reading input:", readErr)
		return exitProblem
	}
	if werr != nil {
		fmt.Fprintln(w.stderr, "canon: writing output:", werr)
		return exitProblem
	}
	if w.skipped > 0 {
		fmt.Fprintf(w.stderr, "canon: %d of %d lines skipped: their scheme is not one of -schemes\n", w.skipped, w.lines)
	}
	if w.failed > 0 {
		fmt.Fprintf(w.stderr, "canon: %d of %d lines failed\n", w.failed, w.lines)
		return exitFailed
	}
	return exitOK
}

// readBatches reads r into batches of whole lines and passes each to
// send once it holds batchBytes/4 or more (or at the end), or
// maxBatchLines lines. A line that does not fit a batch makes the batch
// grow, up to maxLine+1 bytes (see maxLineBytes); one that fills that is
// dropped as it is read and sent as a batch of its own with long set, so
// that memory stays bounded (normalizeBatch fails the shorter ones that
// are too long).
func readBatches(r io.Reader, maxLine int, next func() *batch, send func(*batch)) error {
	b := next()
	b.data = slices.Grow(b.data[:0], batchBytes)
	lineEnd := 0      // b.data[:lineEnd] is whole lines
	skipping := false // inside a line longer than MaxLength
	for {
		if len(b.data) == cap(b.data) {
			// A full buffer holds no line end (lines are sent once a
			// quarter of it is read): one line longer than a read.
			if len(b.data) > maxLine {
				skipping, b.data = true, b.data[:0]
			} else {
				// Twice as large, but no larger than it takes to see
				// that a line is longer than maxLine.
				b.data = slices.Grow(b.data, min(len(b.data), maxLine+1-len(b.data)))
			}
		}
		n, err := r.Read(b.data[len(b.data):cap(b.data)])
		read := b.data[len(b.data) : len(b.data)+n]
		b.data = b.data[:len(b.data)+n]
		if err != nil && err != io.EOF {
			return err
		}
		if skipping {
			k := bytes.IndexByte(read, '\n')
			if k < 0 && err == nil {
				b.data = b.data[:0]
				continue
			}
			var rest []byte // what follows the line; nothing at EOF
			if k >= 0 {
				rest = read[k+1:]
			}
			b.data, b.long, skipping = b.data[:0], true, false
			b = sendAndCarry(b, rest, next, send)
			read = b.data
		}
		// Only the bytes just read can end a line: searching the whole
		// batch after every read would cost a long line's length squared
		// over the read size (a second for two 4 MiB lines from a pipe).
		if k := bytes.LastIndexByte(read, '\n'); k >= 0 {
			lineEnd = len(b.data) - len(read) + k + 1
			b.ends += bytes.Count(read[:k+1], newline)
		}
		// The lines past maxBatchLines go to the next batch.
		for b.ends > maxBatchLines {
			cut := afterLines(b.data, maxBatchLines)
			rest, ends := b.data[cut:], b.ends-maxBatchLines
			b.data, b.ends = b.data[:cut], maxBatchLines
			b = sendAndCarry(b, rest, next, send)
			b.ends = ends
			lineEnd = bytes.LastIndexByte(b.data, '\n') + 1
		}
		if err == io.EOF {
			if len(b.data) > 0 {
				send(b)
			}
			return nil
		}
		// Send the whole lines; the partial one starts the next batch.
		if len(b.data) >= batchBytes/4 && lineEnd > 0 {
			rest := b.data[lineEnd:]
			b.data = b.data[:lineEnd]
			b = sendAndCarry(b, rest, next, send)
			lineEnd = 0
		}
	}
}

var newline = []byte{'\n'}

// afterLines returns the offset in data after its n-th "\n"; data has n
// or more.
func afterLines(data []byte, n int) int {
	at := 0
	for ; n > 0; n-- {
		at += bytes.IndexByte(data[at:], '\n') + 1
	}
	return at
}

// readMapped passes the mapped input m to send in batches of whole lines
// that point into the mapping. A batch ends at the first line end
// batchBytes or more on, or after maxBatchLines lines. A line longer
// than maxLine (see maxLineBytes) that crosses that point is sent as a
// long batch of its own, its pages released as they are searched, so
// that memory stays bounded; a shorter one stays in the batch, and
// normalizeBatch fails it.
func readMapped(m *mappedInput, maxLine int, next func() *batch, send func(*batch)) {
	data := m.data
	// sendLines sends the whole lines of data[from:to] in batches of at
	// most maxBatchLines lines.
	sendLines := func(from, to int) {
		ends := bytes.Count(data[from:to], newline)
		for from < to {
			b := next()
			end, n := to, ends
			if n > maxBatchLines {
				end, n = from+afterLines(data[from:to], maxBatchLines), maxBatchLines
			}
			b.data, b.mapEnd, b.ends = data[from:end], end, n
			send(b)
			from, ends = end, ends-n
		}
	}
	for pos := m.start; pos < len(data); {
		end := min(pos+batchBytes, len(data))
		limit := min(end+maxLine+1, len(data)) // +1: the "\n"
		if k := bytes.IndexByte(data[end:limit], '\n'); k >= 0 {
			end += k + 1
		} else {
			end = limit
		}
		if end == len(data) || data[end-1] == '\n' {
			sendLines(pos, end)
			pos = end
			continue
		}
		// The line that crosses pos+batchBytes goes on for maxLine+1
		// bytes: send the lines before it, then skip it.
		lineAt := pos + bytes.LastIndexByte(data[pos:pos+batchBytes], '\n') + 1
		if lineAt > pos {
			sendLines(pos, lineAt)
		}
		for from := lineAt; end < len(data) && data[end-1] != '\n'; {
			m.drop(from, end)
			from = end
			step := min(end+batchBytes, len(data))
			if k := bytes.IndexByte(data[end:step], '\n'); k >= 0 {
				step = end + k + 1
			}
			end = step
		}
		b := next()
		b.long, b.mapEnd = true, end
		send(b)
		pos = end
	}
}

// sendAndCarry sends b and returns the next batch, which starts with
// rest: bytes read after b's last line, still in b's array past its
// length. Only the reader takes batches from the pool, so b's array
// cannot be reused before rest is copied - except as the next batch
// itself, where the copy moves rest to the front (append is a memmove).
func sendAndCarry(b *batch, rest []byte, next func() *batch, send func(*batch)) *batch {
	send(b)
	nb := next()
	nb.data = append(slices.Grow(nb.data[:0], max(batchBytes, len(rest))), rest...)
	return nb
}

// normalizeBatch normalizes the lines of b.data into b.out (or b.keys
// for -u). The input strings share b.data's bytes: they must not outlive
// the batch.
func normalizeBatch(cfg *config, b *batch) {
	if cfg.rekey || cfg.inputs {
		rekeyBatch(cfg, b)
		return
	}
	if b.long {
		b.nlines = 1
		b.failTooLong(cfg, 0)
		return
	}
	fastText := !cfg.unique && cfg.format == "text" && cfg.base == "" && !cfg.explain && cfg.schemes == nil
	fastSURT := !cfg.unique && cfg.format == "surt" && cfg.base == "" && cfg.schemes == nil
	var buf []byte
	data := b.data
	for i := 0; len(data) > 0; i++ {
		var line []byte
		line, data = nextLine(data)
		b.nlines++
		if len(line) > canon.MaxLength {
			// Fail it as the reader fails longer lines, without
			// quoting 4 MiB of input in the error.
			b.failTooLong(cfg, i)
			continue
		}
		in := unsafe.String(unsafe.SliceData(line), len(line))
		if isBlank(line) {
			// Not a URL, and so not a failure; nor an empty reference
			// that -base would resolve to the base itself.
			b.blank(cfg, in)
			continue
		}
		var key string
		var err error
		switch {
		case fastText:
			// The common case: append the key to the output directly.
			n := len(b.out)
			if b.out, err = cfg.encoding.AppendNormalized(b.out, in, cfg.profile); err == nil {
				b.out = append(b.out, '\n')
				continue
			}
			b.out = b.out[:n]
		case fastSURT:
			// The key is only read, by appendSURT below, before buf is
			// written again: it need not be copied.
			if buf, err = cfg.encoding.AppendNormalized(buf[:0], in, cfg.profile); err == nil {
				key = unsafe.String(unsafe.SliceData(buf), len(buf))
			}
		case cfg.base != "":
			key, err = cfg.page.Normalize(in)
		default:
			if buf, err = cfg.encoding.AppendNormalized(buf[:0], in, cfg.profile); err == nil {
				// Most lines are their own keys: those need no copy (-u
				// clones what it keeps).
				if key = in; string(buf) != in {
					key = string(buf)
				}
			}
		}
		if err != nil {
			b.fail(cfg, i, in, newLineError(in, err))
			continue
		}
		if !cfg.schemeAllowed(key) {
			b.skip(cfg, in)
			continue
		}
		if cfg.format == "expressions" {
			// The key's lookup expressions, a line each (the key is its
			// own key: LookupExpressions reads it without a copy).
			exprs, err := canon.LookupExpressions(key)
			if err != nil {
				b.fail(cfg, i, in, newLineError(in, err))
				continue
			}
			for _, x := range exprs {
				b.out = appendTSVField(b.out, in, cfg.header)
				b.out = append(append(b.out, '\t'), x...)
				if cfg.hashBytes > 0 {
					sum := sha256.Sum256([]byte(x))
					b.out = hex.AppendEncode(append(b.out, '\t'), sum[:cfg.hashBytes])
				}
				b.out = append(b.out, '\n')
			}
			continue
		}
		if cfg.explain {
			// The steps again, one Normalize each: Explain is for
			// reading, and key is kept for the jsonl record.
			changes, err := canon.Explain(in, cfg.profile)
			if err != nil {
				b.fail(cfg, i, in, newLineError(in, err))
				continue
			}
			b.out = renderExplain(b.out, cfg, in, key, changes)
			continue
		}
		if cfg.format == "surt" {
			// The SURT instead of the key: appended to the output
			// directly, or, for -u, which counts SURTs, kept as the key.
			dst := b.out
			if cfg.unique {
				dst = buf[:0]
			}
			var s []byte
			if s, err = appendSURT(dst, key, 0); err != nil {
				b.fail(cfg, i, in, newLineError(in, err))
				continue
			}
			if !cfg.unique {
				b.out = append(s, '\n')
				continue
			}
			buf, key = s, string(s)
		}
		if cfg.unique {
			b.lines = append(b.lines, in)
			b.keys = append(b.keys, key)
			continue
		}
		b.out = render(b.out, cfg, in, key, 0)
	}
}

// appendSURT is canon.AppendSURT; a test replaces it to see how the
// command reports a key that SURT rejects, which no profile makes.
var appendSURT = canon.AppendSURT

// isBlank reports whether line is empty or only ASCII white space. The
// first byte decides for almost every line.
func isBlank(line []byte) bool {
	for _, c := range line {
		switch c {
		case ' ', '\t', '\r', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

// fail records that line i of b, whose input is in, failed with e.
func (b *batch) fail(cfg *config, i int, in string, e lineError) {
	b.errAt = append(b.errAt, i)
	b.errs = append(b.errs, e)
	switch {
	case cfg.unique:
		// The key "" keeps the line out of the set.
		b.lines = append(b.lines, in)
		b.keys = append(b.keys, "")
	case cfg.skipInvalid, cfg.explain && cfg.format == "text", cfg.format == "expressions":
		// -explain's blocks and the expressions are not aligned with the
		// input: a failing line has none.
	case cfg.format == "jsonl":
		dst := append(b.out, `{"in":`...)
		dst = appendJSONString(dst, in)
		dst = append(dst, `,"line":`...)
		b.nums = append(b.nums, lineRef{at: len(dst), line: i})
		dst = append(dst, `,"error":`...)
		dst = appendJSONString(dst, e.msg)
		dst = append(dst, `,"kind":`...)
		dst = appendJSONString(dst, e.kind)
		if e.component != "" {
			dst = append(dst, `,"component":`...)
			dst = appendJSONString(dst, e.component)
		}
		if e.offset >= 0 {
			dst = append(dst, `,"offset":`...)
			dst = strconv.AppendInt(dst, int64(e.offset), 10)
		}
		b.out = append(dst, "}\n"...)
	default:
		// An empty key, so that the output stays aligned with the input.
		b.out = renderNoKey(b.out, cfg, in)
	}
}

// failTooLong records that line i of b is longer than canon.MaxLength:
// a failure, whose input is not kept. In an index (-format tsv -header),
// whose input field is the input byte for byte, the field is
// tooLongField instead, so that -rekey and -inputs report the line again
// rather than read an empty input, a blank line.
func (b *batch) failTooLong(cfg *config, i int) {
	if cfg.header && cfg.format == "tsv" && !cfg.unique && !cfg.skipInvalid {
		b.errAt = append(b.errAt, i)
		b.errs = append(b.errs, errLineTooLong)
		b.out = append(b.out, tooLongField+"\t\n"...)
		return
	}
	b.fail(cfg, i, "", errLineTooLong)
}

// tooLongField is the input field -format tsv -header writes for an
// input longer than canon.MaxLength, which it does not keep: "\L", which
// no input's escaped field is (appendTSVField writes a "\" only before
// t, r, n or another "\").
const tooLongField = `\L`

// blank records a blank input line, in: no key, and no failure.
func (b *batch) blank(cfg *config, in string) {
	switch {
	case cfg.unique:
		b.lines = append(b.lines, in)
		b.keys = append(b.keys, "")
	case cfg.skipInvalid, cfg.explain && cfg.format == "text", cfg.format == "expressions":
	case cfg.format == "jsonl":
		b.out = append(b.out, `{"in":`...)
		b.out = appendJSONString(b.out, in)
		b.out = append(b.out, `,"blank":true}`+"\n"...)
	default:
		b.out = renderNoKey(b.out, cfg, in)
	}
}

// skip records a line whose key has a scheme -schemes leaves out: no
// key, as for a blank line, and counted, but not a failure.
func (b *batch) skip(cfg *config, in string) {
	b.skips++
	switch {
	case cfg.unique:
		b.lines = append(b.lines, in)
		b.keys = append(b.keys, "")
	case cfg.skipInvalid, cfg.explain && cfg.format == "text":
	case cfg.format == "jsonl":
		b.out = append(b.out, `{"in":`...)
		b.out = appendJSONString(b.out, in)
		b.out = append(b.out, `,"skipped":"scheme"}`+"\n"...)
	default:
		b.out = renderNoKey(b.out, cfg, in)
	}
}

// renderNoKey appends the text or tsv line for an input without a key.
func renderNoKey(dst []byte, cfg *config, in string) []byte {
	if cfg.format == "tsv" {
		dst = appendTSVField(dst, in, cfg.header)
		dst = append(dst, '\t')
	}
	return append(dst, '\n')
}

// render appends the output line for an input and its key; count > 0
// adds the -c count.
func render(dst []byte, cfg *config, in, key string, count int) []byte {
	switch cfg.format {
	case "text", "surt": // for surt, key is the SURT
		if count > 0 {
			dst = appendCount(dst, count)
			dst = append(dst, ' ')
		}
		dst = append(dst, key...)
	case "tsv":
		if count > 0 {
			dst = strconv.AppendInt(dst, int64(count), 10)
			dst = append(dst, '\t')
		}
		dst = appendTSVField(dst, in, cfg.header)
		dst = append(dst, '\t')
		dst = append(dst, key...)
	case "jsonl":
		dst = append(dst, `{"in":`...)
		dst = appendJSONString(dst, in)
		dst = append(dst, `,"out":`...)
		dst = appendJSONString(dst, key)
		if count > 0 {
			dst = append(dst, `,"count":`...)
			dst = strconv.AppendInt(dst, int64(count), 10)
		}
		dst = append(dst, '}')
	}
	return append(dst, '\n')
}

// renderExplain appends what -explain prints for an input and its key.
// In text, a block: the input, a line for each change, an empty line:
//
//	HTTP://Example.COM/a/./b
//	  LowercaseScheme: HTTP://Example.COM/a/./b -> http://Example.COM/a/./b
//	  LowercaseHost: http://Example.COM/a/./b -> http://example.com/a/./b
//	  RemoveDots: http://example.com/a/./b -> http://example.com/a/b
//
// In jsonl, the record of the key with "changes" added, an array of
// {"step":S,"before":B,"after":A} ([] when no step changes the URL).
func renderExplain(dst []byte, cfg *config, in, key string, changes []canon.Change) []byte {
	if cfg.format == "jsonl" {
		dst = append(dst, `{"in":`...)
		dst = appendJSONString(dst, in)
		dst = append(dst, `,"out":`...)
		dst = appendJSONString(dst, key)
		dst = append(dst, `,"changes":[`...)
		for i, c := range changes {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"step":`...)
			dst = appendJSONString(dst, c.Step.String())
			dst = append(dst, `,"before":`...)
			dst = appendJSONString(dst, c.Before)
			dst = append(dst, `,"after":`...)
			dst = appendJSONString(dst, c.After)
			if c.Host != "" {
				dst = append(dst, `,"host":`...)
				dst = appendJSONString(dst, c.Host)
			}
			dst = append(dst, '}')
		}
		return append(dst, "]}\n"...)
	}
	dst = append(dst, in...)
	dst = append(dst, '\n')
	for _, c := range changes {
		dst = append(dst, "  "...)
		dst = append(dst, c.Step.String()...)
		if c.Host != "" {
			// The step read the rules of this entry of Rules.Hosts.
			dst = append(dst, " (rules of "...)
			dst = append(dst, c.Host...)
			dst = append(dst, ')')
		}
		dst = append(dst, ": "...)
		dst = append(dst, c.Before...)
		dst = append(dst, " -> "...)
		dst = append(dst, c.After...)
		dst = append(dst, '\n')
	}
	return append(dst, '\n')
}

// appendCount right-aligns n in 7 columns, as uniq -c does.
func appendCount(dst []byte, n int) []byte {
	s := strconv.Itoa(n)
	for i := len(s); i < 7; i++ {
		dst = append(dst, ' ')
	}
	return append(dst, s...)
}

// appendTSVField writes the input s as a tsv field. With escape (-header)
// a TAB, CR, LF or "\\" in it is written "\\t", "\\r", "\\n" or "\\\\", so
// that the columns stay intact and -rekey reads the input back byte for
// byte (unescapeTSVField); without, a TAB, CR or LF is written as a
// space, which keeps the columns but not the input.
func appendTSVField(dst []byte, s string, escape bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c != '\t' && c != '\r' && c != '\n' && c != '\\':
			dst = append(dst, c)
		case !escape && c == '\\':
			dst = append(dst, c)
		case !escape:
			dst = append(dst, ' ')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		default:
			dst = append(dst, '\\', '\\')
		}
	}
	return dst
}

// unescapeTSVField appends the input an escaped tsv field f stands for
// (see appendTSVField) to dst, and reports false when f holds a "\\"
// that starts none of the four escapes.
func unescapeTSVField(dst, f []byte) ([]byte, bool) {
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		if i++; i == len(f) {
			return dst, false
		}
		switch f[i] {
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'n':
			dst = append(dst, '\n')
		case '\\':
			dst = append(dst, '\\')
		default:
			return dst, false
		}
	}
	return dst, true
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// uniqueKeys implements -u and -c: keys in order of first occurrence.
type uniqueKeys struct {
	index  map[string]int
	keys   []string
	inputs []string
	counts []int
}

func (u *uniqueKeys) add(cfg *config, b *batch, out *bufio.Writer) {
	var buf []byte
	for i, k := range b.keys {
		if k == "" {
			continue // failed (reported on stderr) or blank
		}
		if j, ok := u.index[k]; ok {
			u.counts[j]++
			continue
		}
		// Keys and inputs may share the batch's buffer: keep copies.
		k = strings.Clone(k)
		u.index[k] = len(u.keys)
		u.keys = append(u.keys, k)
		u.counts = append(u.counts, 1)
		if cfg.count {
			if cfg.withInput() {
				u.inputs = append(u.inputs, strings.Clone(b.lines[i]))
			}
			continue
		}
		buf = render(buf[:0], cfg, b.lines[i], k, 0)
		out.Write(buf)
	}
}

func (u *uniqueKeys) writeCounts(cfg *config, out *bufio.Writer) {
	var buf []byte
	for j, k := range u.keys {
		in := ""
		if cfg.withInput() {
			in = u.inputs[j]
		}
		buf = render(buf[:0], cfg, in, k, u.counts[j])
		out.Write(buf)
	}
}

// progress reports lines, lines/s and failures on standard error. On a
// terminal it rewrites one line in place, at most four times a second,
// and erases it at the end. Anywhere else - a log file, a pipe - escape
// sequences and carriage returns would be garbage, so it writes a plain
// line at most once a second, and a last one with the totals.
type progress struct {
	w       io.Writer
	on      bool
	tty     bool // w is a terminal
	start   time.Time
	last    time.Time // of the last report
	printed bool      // a line is on the terminal, to erase before other output
	buf     []byte
}

func newProgress(cfg *config, stderr io.Writer) *progress {
	p := &progress{w: stderr, start: time.Now(), tty: isTerminal(stderr)}
	// On by default on a terminal only; "-progress=false" turns it off
	// there too.
	p.on = cfg.progress || (p.tty && !cfg.progressSet)
	if !p.tty {
		p.last = p.start // the first line after a second, not at once
	}
	return p
}

// isTerminal reports whether w is a character device, as a terminal is.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (p *progress) update(lines, failed int) {
	if !p.on {
		return
	}
	now := time.Now()
	every := time.Second
	if p.tty {
		every = 250 * time.Millisecond
	}
	if now.Sub(p.last) < every {
		return
	}
	p.last = now
	p.report(now, lines, failed)
}

// report writes the progress line for now.
func (p *progress) report(now time.Time, lines, failed int) {
	b := p.buf[:0]
	if p.tty {
		b = append(b, "\r\033[K"...)
	} else {
		b = append(b, "canon: "...)
	}
	b = strconv.AppendInt(b, int64(lines), 10)
	b = append(b, " lines, "...)
	rate := 0.0
	if d := now.Sub(p.start).Seconds(); d > 0 {
		rate = float64(lines) / d
	}
	b = strconv.AppendFloat(b, rate, 'f', 0, 64)
	b = append(b, " lines/s, "...)
	b = strconv.AppendInt(b, int64(failed), 10)
	b = append(b, " failed"...)
	if p.tty {
		p.printed = true
	} else {
		b = append(b, '\n')
	}
	p.w.Write(b)
	p.buf = b
}

// clear erases the progress line from the terminal before other output.
func (p *progress) clear() {
	if p.printed {
		io.WriteString(p.w, "\r\033[K")
		p.printed = false
	}
}

// finish ends the report: it erases the terminal's line, or writes the
// totals as a last plain line.
func (p *progress) finish(lines, failed int) {
	switch {
	case !p.on:
	case p.tty:
		p.clear()
	default:
		p.report(time.Now(), lines, failed)
	}
}

// runEqual implements -equal: exit 0 when the two URLs have the same key.
func runEqual(cfg *config, stdout, stderr io.Writer) int {
	var keys [2]string
	for i, u := range cfg.urls[:2] {
		which := [2]string{"first URL", "second URL"}[i]
		var err error
		switch {
		case strings.TrimLeft(u, " \t\r\v\f") == "":
			// As in a list, a blank is not a URL - not even, with
			// -base, the base itself.
			fmt.Fprintf(stderr, "canon: -equal: %s is blank\n", which)
			return exitUsage
		case cfg.base != "":
			// Each is resolved by the profile's own rule (RFC 1808 for
			// WebCapture, the WHATWG URL Standard for whatwg), as -base
			// does for a list.
			keys[i], err = cfg.page.Normalize(u)
		default:
			keys[i], err = cfg.encoding.Normalize(u, cfg.profile)
		}
		if err != nil {
			fmt.Fprintf(stderr, "canon: -equal: %s: %s\n", which, errorText(err))
			return exitUsage
		}
	}
	if keys[0] == keys[1] {
		return exitOK
	}
	return exitFailed
}

// nextLine splits the first line off data: the bytes before the first
// "\n" (or all of them), without a "\r" that ends it, and the rest after
// the "\n" (nil when there is none).
func nextLine(data []byte) (line, rest []byte) {
	line = data
	if k := bytes.IndexByte(data, '\n'); k >= 0 {
		line, rest = data[:k], data[k+1:]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, rest
}
