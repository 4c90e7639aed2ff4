package learn

// The captures a Learner holds: records in one byte order, held in
// memory up to a budget and then sorted and written to a file of a
// temporary directory (a run), as sort(1) does; at the end the runs and
// what memory holds are merged, so that each host's records come
// together, in the same order whatever the order of Add.

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// A record is one capture, encoded so that bytes.Compare orders the
// records by host (hostKey: the host's labels in reverse, so that a
// domain comes right before its subdomains), then by the sample rank of
// its path and of its key (a large host is sampled by these: see
// hostBatch), then by the rest; equal captures are equal records. Its
// layout:
//
//	hostKey 0x00 pathRank(8) keyRank(8) kind(1) time(8) len key len digest len url
//
// (ranks and time big-endian, the time's sign bit flipped; lengths as
// uvarints).
type record struct {
	hostKey  []byte
	kind     byte // recEvidence or recNames
	t        int64
	key      string
	digest   string
	url      string
	pathRank uint64
}

const (
	recNames    byte = 1 // a capture that is no evidence: only its parameter names count
	recEvidence byte = 2 // a status-200 capture with a digest
)

// appendRecord appends the encoding of a capture to dst.
func appendRecord(dst, hostKey []byte, pathRank, keyRank uint64, kind byte, t int64, key, digest, url string) []byte {
	dst = append(dst, hostKey...)
	dst = append(dst, 0)
	dst = binary.BigEndian.AppendUint64(dst, pathRank)
	dst = binary.BigEndian.AppendUint64(dst, keyRank)
	dst = append(dst, kind)
	dst = binary.BigEndian.AppendUint64(dst, uint64(t)^(1<<63))
	for _, s := range [...]string{key, digest, url} {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	return dst
}

// errCorrupt is a spill file that does not hold what was written to it.
var errCorrupt = errors.New("learn: a temporary file of the learner is corrupt")

// recordHost returns the hostKey of an encoded record.
func recordHost(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}

// decodeRecord decodes an encoded record; its strings are copies.
func decodeRecord(b []byte) (record, error) {
	var r record
	i := bytes.IndexByte(b, 0)
	if i < 0 || len(b) < i+1+25 {
		return r, errCorrupt
	}
	r.hostKey = b[:i]
	b = b[i+1:]
	r.pathRank = binary.BigEndian.Uint64(b)
	r.kind = b[16]
	r.t = int64(binary.BigEndian.Uint64(b[17:]) ^ (1 << 63))
	b = b[25:]
	var fields [3]string
	for k := range fields {
		n, w := binary.Uvarint(b)
		if w <= 0 || uint64(len(b)-w) < n {
			return r, errCorrupt
		}
		fields[k] = string(b[w : w+int(n)])
		b = b[w+int(n):]
	}
	r.key, r.digest, r.url = fields[0], fields[1], fields[2]
	return r, nil
}

// spiller holds encoded records in memory, up to limit bytes, and then
// writes them, sorted, to a run file in a temporary directory of its
// own, which close removes.
type spiller struct {
	limit  int
	tmpDir string // where the temporary directory is made ("": os.TempDir())

	chunks [][]byte // the memory the records are in, in chunks (a record never spans two)
	recs   [][]byte // the records held, in chunks
	held   int      // their bytes

	mu     sync.Mutex // guards dir and closed (close may come from a signal handler)
	dir    string     // the temporary directory, once made
	closed bool
	runs   []string // the run files, each sorted
	spills int      // files written (for the names)
}

const (
	chunkSize = 1 << 20
	maxRuns   = 64 // runs merged into one when there are this many (open files)
)

// add adds an encoded record (built in enc, which the caller reuses).
func (s *spiller) add(enc []byte) error {
	n := len(enc)
	var dst []byte
	if n > chunkSize/4 {
		dst = slices.Clone(enc) // a chunk of its own
	} else {
		if len(s.chunks) == 0 || cap(s.chunks[len(s.chunks)-1])-len(s.chunks[len(s.chunks)-1]) < n {
			s.chunks = append(s.chunks, make([]byte, 0, chunkSize))
		}
		c := &s.chunks[len(s.chunks)-1]
		start := len(*c)
		*c = append(*c, enc...)
		dst = (*c)[start : start+n : start+n]
	}
	s.recs = append(s.recs, dst)
	s.held += n + 24 // (the slice header in recs)
	if s.held >= s.limit {
		return s.spill()
	}
	return nil
}

// spill writes the records held, sorted, to a new run file, and lets
// them go.
func (s *spiller) spill() error {
	if len(s.recs) == 0 {
		return nil
	}
	slices.SortFunc(s.recs, bytes.Compare)
	name, err := s.newFile()
	if err != nil {
		return err
	}
	if err := writeRun(name, &sliceSource{recs: s.recs}); err != nil {
		return err
	}
	s.runs = append(s.runs, name)
	// (Cleared: the slice's array, kept for the next records, would keep
	// the chunks its old elements point into.)
	clear(s.recs)
	s.recs, s.chunks, s.held = s.recs[:0], nil, 0
	if len(s.runs) >= maxRuns {
		// Too many files to hold open at once: merge them into one.
		name, err := s.newFile()
		if err != nil {
			return err
		}
		src, closeAll, err := s.mergeRuns(s.runs, nil)
		if err != nil {
			return err
		}
		err = writeRun(name, src)
		closeAll()
		if err != nil {
			return err
		}
		for _, r := range s.runs {
			os.Remove(r)
		}
		s.runs = append(s.runs[:0], name)
	}
	return nil
}

// newFile returns the name of a new run file, making the temporary
// directory first.
func (s *spiller) newFile() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", errors.New("learn: the Learner is closed")
	}
	if s.dir == "" {
		d, err := os.MkdirTemp(s.tmpDir, "canon-learn-")
		if err != nil {
			return "", fmt.Errorf("learn: a temporary directory for the captures: %w", err)
		}
		s.dir = d
	}
	s.spills++
	return filepath.Join(s.dir, fmt.Sprintf("run-%06d", s.spills)), nil
}

// writeRun writes the records of src to the file name, each after its
// length (a uvarint), equal records once.
func writeRun(name string, src source) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	w := bufio.NewWriterSize(f, 256<<10)
	var prev []byte
	var lenBuf [binary.MaxVarintLen64]byte
	for {
		rec, err := src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			f.Close()
			return err
		}
		if prev != nil && bytes.Equal(prev, rec) {
			continue
		}
		prev = append(prev[:0], rec...)
		w.Write(lenBuf[:binary.PutUvarint(lenBuf[:], uint64(len(rec)))])
		w.Write(rec)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("learn: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	return nil
}

// all returns every record added, in order, equal records once: the
// records held, sorted, merged with the runs. The caller calls done
// when it has read them.
func (s *spiller) all() (src source, done func(), err error) {
	slices.SortFunc(s.recs, bytes.Compare)
	mem := &sliceSource{recs: s.recs}
	if len(s.runs) == 0 {
		return &dedupSource{src: mem}, func() {}, nil
	}
	m, closeAll, err := s.mergeRuns(s.runs, mem)
	if err != nil {
		return nil, nil, err
	}
	return &dedupSource{src: m}, closeAll, nil
}

// mergeRuns returns a source that merges the run files and extra (nil:
// none).
func (s *spiller) mergeRuns(runs []string, extra source) (source, func(), error) {
	m := &mergeSource{}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	for _, name := range runs {
		f, err := os.Open(name)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("learn: %w", err)
		}
		files = append(files, f)
		m.srcs = append(m.srcs, &fileSource{r: bufio.NewReaderSize(f, 64<<10)})
	}
	if extra != nil {
		m.srcs = append(m.srcs, extra)
	}
	if err := m.init(); err != nil {
		closeAll()
		return nil, nil, err
	}
	return m, closeAll, nil
}

// close removes the temporary directory and what it holds; the spiller
// then takes no more records. It is safe to call more than once, and
// from another goroutine (a signal handler) while the spiller works.
func (s *spiller) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.dir == "" {
		return nil
	}
	err := os.RemoveAll(s.dir)
	s.dir = ""
	if err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	return nil
}

// A source gives records in order; io.EOF at the end. A record is valid
// until the next call.
type source interface {
	next() ([]byte, error)
}

type sliceSource struct {
	recs [][]byte
	i    int
}

func (s *sliceSource) next() ([]byte, error) {
	if s.i == len(s.recs) {
		return nil, io.EOF
	}
	s.i++
	return s.recs[s.i-1], nil
}

type fileSource struct {
	r   *bufio.Reader
	buf []byte
}

func (s *fileSource) next() ([]byte, error) {
	n, err := binary.ReadUvarint(s.r)
	if err == io.EOF {
		return nil, io.EOF
	}
	if err != nil || n > 4*maxLine {
		return nil, errCorrupt
	}
	if uint64(cap(s.buf)) < n {
		s.buf = make([]byte, n)
	}
	s.buf = s.buf[:n]
	if _, err := io.ReadFull(s.r, s.buf); err != nil {
		return nil, errCorrupt
	}
	return s.buf, nil
}

// mergeSource merges sorted sources.
type mergeSource struct {
	srcs []source
	h    recHeap
	last int // the source whose record was given last (-1: none), to advance
}

type recHeap []heapItem

type heapItem struct {
	rec []byte
	src int
}

func (h recHeap) Len() int           { return len(h) }
func (h recHeap) Less(i, j int) bool { return bytes.Compare(h[i].rec, h[j].rec) < 0 }
func (h recHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *recHeap) Push(x any)        { *h = append(*h, x.(heapItem)) }
func (h *recHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (m *mergeSource) init() error {
	m.last = -1
	for i, s := range m.srcs {
		rec, err := s.next()
		if err == io.EOF {
			continue
		}
		if err != nil {
			return err
		}
		m.h = append(m.h, heapItem{rec, i})
	}
	heap.Init(&m.h)
	return nil
}

func (m *mergeSource) next() ([]byte, error) {
	if m.last >= 0 {
		// The record given last is no longer needed: advance its source.
		rec, err := m.srcs[m.last].next()
		switch {
		case err == io.EOF:
			heap.Pop(&m.h)
		case err != nil:
			return nil, err
		default:
			m.h[0].rec = rec
			heap.Fix(&m.h, 0)
		}
		m.last = -1
	}
	if len(m.h) == 0 {
		return nil, io.EOF
	}
	m.last = m.h[0].src
	return m.h[0].rec, nil
}

// dedupSource gives a sorted source's records, equal records once.
type dedupSource struct {
	src  source
	prev []byte
	have bool
}

func (d *dedupSource) next() ([]byte, error) {
	for {
		rec, err := d.src.next()
		if err != nil {
			return nil, err
		}
		if d.have && bytes.Equal(rec, d.prev) {
			continue
		}
		d.prev, d.have = append(d.prev[:0], rec...), true
		return rec, nil
	}
}
