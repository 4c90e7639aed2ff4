package main

import (
	"bufio"
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn1x2[string, int, string](&shardFn{})
	register.Function1x2(shardID)
	register.DoFn4x1[context.Context, int, func(*int) bool, func(*string) bool, error](&writeShardFn{})
	register.Iter1[int]()
	register.Iter1[string]()
}

// shardName is the name of shard i of n.
func shardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d", prefix, i, n)
}

// writeShards writes the strings of lines, one a line, to n files
// PREFIX-SSSSS-of-NNNNN, as Beam's Java TextIO names its shards.
// textio.Write writes one file from one worker; n shards
// are written in parallel, so that a large job's output is not funnelled
// through one machine. Every shard is written, empty ones too: an empty
// failures file says there was none, and a reader of the output can
// check that it has all n. The order of lines within a shard is the
// runner's.
func writeShards(s beam.Scope, prefix string, n int, lines beam.PCollection) {
	s = s.Scope("writeShards")
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	// Grouping the lines with the list of shard ids gives each shard a
	// group, lines or not.
	all := beam.ParDo(s, shardID, beam.CreateList(s, ids))
	keyed := beam.ParDo(s, &shardFn{N: n}, lines)
	beam.ParDo0(s, &writeShardFn{Prefix: prefix, N: n}, beam.CoGroupByKey(s, all, keyed))
}

func shardID(i int) (int, int) { return i, i }

// shardFn picks a line's shard by its FNV-1a hash: a line's repeats go to
// one shard, and the shards are about even.
type shardFn struct {
	N int `json:"n"`
}

func (f *shardFn) ProcessElement(line string) (int, string) {
	h := uint32(2166136261)
	for i := 0; i < len(line); i++ {
		h ^= uint32(line[i])
		h *= 16777619
	}
	return int(h % uint32(f.N)), line
}

// writeShardFn writes one shard. A retried bundle rewrites the whole
// file (OpenWrite truncates), so a retry leaves no partial copy behind.
type writeShardFn struct {
	Prefix string `json:"prefix"`
	N      int    `json:"n"`
}

func (f *writeShardFn) ProcessElement(ctx context.Context, shard int, _ func(*int) bool, lines func(*string) bool) error {
	name := shardName(f.Prefix, shard, f.N)
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	fd, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(fd, 1<<20)
	var line string
	for lines(&line) {
		w.WriteString(line)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		fd.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := fd.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}
