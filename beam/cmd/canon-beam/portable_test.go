package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
)

// TestPortableJobServer runs the command as a client of a job server in
// another process, over Beam's Job API, the path Flink's and Spark's job
// servers take: it builds prism's command (Beam's
// github.com/apache/beam/sdks/v2/go/cmd/prism, from the module cache),
// starts it as a job server on a free port, waits for the port, and runs
// canon-beam (this test binary, as the command: see TestMain) with
// --runner=universal --endpoint=localhost:PORT
// --environment_type=LOOPBACK. The job's outputs are compared with the
// library's, and prism's log must show that it ran the job.
func TestPortableJobServer(t *testing.T) {
	start := time.Now()
	dir := t.TempDir()
	prism := goBuild(t, dir, "github.com/apache/beam/sdks/v2/go/cmd/prism", "prism")
	built := time.Since(start)

	port := freePort(t)
	var prismLog lockedBuffer
	server := exec.Command(prism, "--job_port="+port, "--serve_http=false", "--log_kind=text")
	server.Stdout, server.Stderr = &prismLog, &prismLog
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- server.Wait() }()
	defer func() {
		server.Process.Kill()
		<-exited
	}()
	waitForPort(t, "localhost:"+port, exited, &prismLog)
	up := time.Since(start)

	lines := inputs(t, dir)
	output := filepath.Join(dir, "out", "keys")
	client := exec.Command(os.Args[0],
		"-input", filepath.Join(dir, "in", "*.txt"), "-output", output, "-mode", "tsv", "-profile", "whatwg", "-shards", "2",
		"--runner=universal", "--endpoint=localhost:"+port, "--environment_type=LOOPBACK")
	client.Env = append(os.Environ(), "CANON_BEAM_MAIN=1")
	var clientErr bytes.Buffer
	client.Stdout, client.Stderr = &clientErr, &clientErr
	if err := client.Run(); err != nil {
		t.Fatalf("canon-beam --runner=universal: %v\n%s\nprism:\n%s", err, clientErr.String(), prismLog.String())
	}
	ran := time.Since(start)

	var want, failures []string
	nblank := 0
	for _, l := range lines {
		if blank(l) {
			nblank++
			continue
		}
		k, err := canon.Normalize(l, canon.WHATWG)
		if err != nil {
			failures = append(failures, tsvField(l))
			continue
		}
		want = append(want, tsvField(l)+"\t"+k)
	}
	sameLines(t, "output", readShards(t, output, 2), want)
	sameLines(t, "failures", firstColumn(readShards(t, output+"-failures", 2)), failures)
	summary := fmt.Sprintf("canon-beam: %d lines (%d blank), %d failed (%s-failures-*)", len(lines), nblank, len(failures), output)
	if !strings.Contains(clientErr.String(), summary) {
		t.Errorf("no summary %q in the command's output:\n%s", summary, clientErr.String())
	}
	if log := prismLog.String(); !strings.Contains(log, "pipeline done!") || !strings.Contains(log, "job-001") {
		t.Errorf("prism's log does not show the job done:\n%s", log)
	}
	t.Logf("prism built in %v, serving after %v, job done after %v", built.Round(time.Millisecond), up.Round(time.Millisecond), ran.Round(time.Millisecond))
}

// freePort returns a TCP port free on the loopback interface now.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// waitForPort waits until addr accepts a connection, failing if the
// server exits first or takes more than a minute.
func waitForPort(t *testing.T, addr string, exited chan error, log *lockedBuffer) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("prism exited before serving: %v\n%s", err, log.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("prism not serving on %s after a minute:\n%s", addr, log.String())
		}
	}
}

// lockedBuffer is a bytes.Buffer that a process writes while the test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
