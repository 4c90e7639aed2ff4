package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/seed15588f71/canon"
)

// A batch is a run of consecutive input lines, normalized by one worker
// and written by the writer in sequence order. Batches are what bounds
// memory: at most maxInFlight of them exist at once.
type batch struct {
	seq    int
	first  int      // line number of lines[0], from 1
	lines  []string // input lines, without the line ending
	long   []bool   // the line exceeded canon.MaxLength and was not kept
	keys   []string // -u: the key of each line, "" when it failed
	out    []byte   // rendered output (not in -u mode)
	errs   []byte   // "line N: error\n" for each failing line
	failed int
}

const (
	batchLines = 512
	batchBytes = 256 << 10
)

// batchPool recycles batches, whose buffers are most of the garbage the
// command would otherwise make.
var batchPool = sync.Pool{New: func() any { return new(batch) }}

func newBatch(seq, first int) *batch {
	b := batchPool.Get().(*batch)
	*b = batch{seq: seq, first: first, lines: b.lines[:0], long: b.long[:0], out: b.out[:0]}
	return b
}

func process(cfg *config, in io.Reader, stdout, stderr io.Writer) int {
	maxInFlight := 4 * cfg.workers
	work := make(chan *batch, cfg.workers)
	done := make(chan *batch, cfg.workers)
	slots := make(chan struct{}, maxInFlight)
	readErr := make(chan error, 1)

	// Reader.
	go func() {
		defer close(work)
		// A batch's lines are gathered in one buffer and become
		// substrings of one string: one allocation per batch, not per line.
		seq, line := 0, 1
		b := newBatch(seq, line)
		var data []byte
		var ends []int
		emit := func() {
			all := string(data)
			start := 0
			for _, e := range ends {
				b.lines = append(b.lines, all[start:e])
				start = e
			}
			slots <- struct{}{}
			work <- b
			seq++
			b = newBatch(seq, line)
			data, ends = data[:0], ends[:0]
		}
		add := func(s []byte, long bool) {
			data = append(data, s...)
			ends = append(ends, len(data))
			b.long = append(b.long, long)
			line++
			if len(ends) == batchLines || len(data) >= batchBytes {
				emit()
			}
		}
		var err error
		if in == nil {
			for _, u := range cfg.urls {
				add([]byte(u), false)
			}
		} else {
			err = readLines(in, add)
		}
		if len(ends) > 0 {
			emit()
		}
		readErr <- err
	}()

	// Workers.
	var wg sync.WaitGroup
	for i := 0; i < cfg.workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				normalizeBatch(cfg, b)
				done <- b
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()

	// Writer: restores input order.
	out := bufio.NewWriterSize(stdout, 64<<10)
	prog := newProgress(cfg, stderr)
	var uniq *uniqueKeys
	if cfg.unique {
		uniq = &uniqueKeys{index: map[string]int{}}
	}
	pending := map[int]*batch{}
	next, lines, failed := 0, 0, 0
	for b := range done {
		pending[b.seq] = b
		for {
			b, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if len(b.errs) > 0 {
				out.Flush()
				prog.clear()
				stderr.Write(b.errs)
			}
			if uniq != nil {
				uniq.add(cfg, b, out)
			} else {
				out.Write(b.out)
			}
			lines += len(b.lines)
			failed += b.failed
			batchPool.Put(b)
			<-slots
			prog.update(lines, failed)
		}
	}
	if uniq != nil && cfg.count {
		uniq.writeCounts(cfg, out)
	}
	werr := out.Flush()
	prog.clear()
	if err := <-readErr; err != nil {
		fmt.Fprintln(stderr, "canon: reading input:", err)
		return exitProblem
	}
	if werr != nil {
		fmt.Fprintln(stderr, "canon: writing output:", werr)
		return exitProblem
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "canon: %d of %d lines failed\n", failed, lines)
		return exitFailed
	}
	return exitOK
}

// readLines calls add for each line of r, without its "\n" or "\r\n".
// A final line without a newline counts. A line longer than
// canon.MaxLength is passed as "" with long set, and is not kept in memory.
func readLines(r io.Reader, add func([]byte, bool)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !tooLong {
				long = append(long, chunk...)
				if len(long) > canon.MaxLength+2 {
					tooLong, long = true, long[:0]
				}
			}
			continue
		}
		if len(chunk) > 0 || len(long) > 0 || tooLong {
			var s []byte
			if !tooLong {
				if len(long) > 0 {
					long = append(long, chunk...)
					chunk = long
				}
				n := len(chunk)
				if n > 0 && chunk[n-1] == '\n' {
					n--
				}
				if n > 0 && chunk[n-1] == '\r' {
					n--
				}
				if n > canon.MaxLength {
					tooLong = true
				} else {
					s = chunk[:n] // add copies it before the next read
				}
			}
			if len(chunk) > 0 || err == nil || tooLong {
				add(s, tooLong)
			}
			long, tooLong = long[:0], false
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func normalizeBatch(cfg *config, b *batch) {
	var buf []byte
	if cfg.unique {
		b.keys = make([]string, len(b.lines))
	}
	for i, in := range b.lines {
		var key string
		var err error
		switch {
		case b.long[i]:
			err = fmt.Errorf("line longer than %d bytes", canon.MaxLength)
		case cfg.base != "":
			key, err = canon.NormalizeRef(cfg.base, in, cfg.profile)
		case !cfg.unique && cfg.format == "text":
			// The common case: append the key to the output directly.
			n := len(b.out)
			if b.out, err = canon.AppendNormalized(b.out, in, cfg.profile); err == nil {
				b.out = append(b.out, '\n')
				continue
			}
			b.out = b.out[:n]
		default:
			if buf, err = canon.AppendNormalized(buf[:0], in, cfg.profile); err == nil {
				key = string(buf)
			}
		}
		if err != nil {
			b.failed++
			b.errs = append(b.errs, "line "...)
			b.errs = strconv.AppendInt(b.errs, int64(b.first+i), 10)
			b.errs = append(b.errs, ": "...)
			b.errs = append(b.errs, err.Error()...)
			b.errs = append(b.errs, '\n')
		}
		if cfg.unique {
			b.keys[i] = key
			continue
		}
		b.out = render(b.out, cfg, in, key, err, 0)
	}
}

// render appends the output line for one input; count > 0 adds the -c count.
func render(dst []byte, cfg *config, in, key string, err error, count int) []byte {
	if err != nil && cfg.skipInvalid {
		return dst
	}
	switch cfg.format {
	case "text":
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
		dst = appendTSVField(dst, in)
		dst = append(dst, '\t')
		dst = append(dst, key...)
	case "jsonl":
		dst = append(dst, `{"in":`...)
		dst = appendJSONString(dst, in)
		if err != nil {
			dst = append(dst, `,"error":`...)
			dst = appendJSONString(dst, err.Error())
		} else {
			dst = append(dst, `,"out":`...)
			dst = appendJSONString(dst, key)
		}
		if count > 0 {
			dst = append(dst, `,"count":`...)
			dst = strconv.AppendInt(dst, int64(count), 10)
		}
		dst = append(dst, '}')
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

// appendTSVField writes s with TAB, CR and LF replaced by spaces, so that
// the columns stay intact.
func appendTSVField(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\t' || c == '\n' || c == '\r' {
			c = ' '
		}
		dst = append(dst, c)
	}
	return dst
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
			continue // failed: reported on stderr
		}
		if j, ok := u.index[k]; ok {
			u.counts[j]++
			continue
		}
		u.index[k] = len(u.keys)
		u.keys = append(u.keys, k)
		u.counts = append(u.counts, 1)
		if cfg.count {
			if cfg.format != "text" {
				u.inputs = append(u.inputs, b.lines[i])
			}
			continue
		}
		buf = render(buf[:0], cfg, b.lines[i], k, nil, 0)
		out.Write(buf)
	}
}

func (u *uniqueKeys) writeCounts(cfg *config, out *bufio.Writer) {
	var buf []byte
	for j, k := range u.keys {
		in := ""
		if cfg.format != "text" {
			in = u.inputs[j]
		}
		buf = render(buf[:0], cfg, in, k, nil, u.counts[j])
		out.Write(buf)
	}
}

// progress reports lines, lines/s and failures on standard error, at most
// four times a second, and erases its line at the end.
type progress struct {
	w       io.Writer
	on      bool
	start   time.Time
	last    time.Time
	printed bool
}

func newProgress(cfg *config, stderr io.Writer) *progress {
	p := &progress{w: stderr, on: cfg.progress, start: time.Now()}
	if f, ok := stderr.(*os.File); ok && !p.on {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) update(lines, failed int) {
	if !p.on {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 250*time.Millisecond {
		return
	}
	p.last = now
	rate := float64(lines) / now.Sub(p.start).Seconds()
	fmt.Fprintf(p.w, "\r\033[K%d lines, %.0f lines/s, %d failed", lines, rate, failed)
	p.printed = true
}

func (p *progress) clear() {
	if p.printed {
		io.WriteString(p.w, "\r\033[K")
		p.printed = false
	}
}

func runEqual(cfg *config, stdout, stderr io.Writer) int {
	a, b := cfg.urls[0], cfg.urls[1]
	if cfg.base != "" {
		var err error
		if a, err = canon.Resolve(cfg.base, a); err != nil {
			fmt.Fprintln(stderr, "canon:", err)
			return exitUsage
		}
		if b, err = canon.Resolve(cfg.base, b); err != nil {
			fmt.Fprintln(stderr, "canon:", err)
			return exitUsage
		}
	}
	eq, err := canon.Equal(a, b, cfg.profile)
	if err != nil {
		fmt.Fprintln(stderr, "canon:", err)
		return exitUsage
	}
	if eq {
		return exitOK
	}
	return exitFailed
}
