#!/usr/bin/env python3
"""Write a CDX-11 index of the HTTP response records of ARC or WARC files.

    python3 index.py FILE.arc.gz > FILE.cdx
    python3 index.py FILE.warc.gz > FILE.cdx

Reads (gzipped or plain) ARC (version 1 or 2) and WARC (0.17 to 1.1)
files and writes, after the header " CDX N b a m s k r M S V g", one
line per record that holds an HTTP response (ARC: a record whose block
starts with "HTTP/"; WARC: a "response" record of such a block), in the
order of the file:

    N  "-" (no SURT key is computed)
    b  the record's date, 14 digits (ARC: its header's; WARC: WARC-Date)
    a  the URL; bytes <= 0x20 and 0x7f percent-encoded so that it stays
       one field
    m  the HTTP Content-Type without parameters, lowercased ("unk": none)
    s  the HTTP status code
    k  the SHA-1, in base32, of the HTTP payload: the bytes of the block
       after the HTTP header (as stored: not de-chunked, not decoded)
    r M S V g  "-"

Records without an HTTP response (filedesc, dns:, warcinfo, request,
metadata, ...) are left out. For a WARC record with a
WARC-Payload-Digest, the computed digest is compared with it; mismatches
are counted on stderr (the computed one is written). Standard library
only.
"""

import base64
import gzip
import hashlib
import sys


def open_any(path):
    f = open(path, "rb")
    magic = f.read(2)
    f.seek(0)
    if magic == b"\x1f\x8b":
        f.close()
        return gzip.open(path, "rb")
    return f


def clean_url(raw):
    out = []
    for b in raw:
        if b <= 0x20 or b == 0x7F:
            out.append("%%%02X" % b)
        else:
            out.append(chr(b))
    return "".join(out)


def parse_http(block):
    """Return (status, mime, payload) of an HTTP response block, or None."""
    if not block.startswith(b"HTTP/"):
        return None
    end = block.find(b"\r\n\r\n")
    sep = 4
    if end < 0:
        end = block.find(b"\n\n")
        sep = 2
    if end < 0:
        head, payload = block, b""
    else:
        head, payload = block[:end], block[end + sep:]
    lines = head.split(b"\n")
    parts = lines[0].split()
    if len(parts) < 2 or not parts[1].isdigit() or len(parts[1]) != 3:
        return None
    status = parts[1].decode("ascii")
    mime = "unk"
    for line in lines[1:]:
        name, colon, value = line.partition(b":")
        if colon and name.strip().lower() == b"content-type":
            v = value.split(b";")[0].strip().lower()
            if v:
                mime = clean_url(v)
            break
    return status, mime, payload


def sha1_b32(data):
    return base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def read_line(f):
    """The next non-empty line (without its line end), or None at the end."""
    while True:
        line = f.readline()
        if not line:
            return None
        line = line.rstrip(b"\r\n")
        if line:
            return line


def arc_records(f, first):
    line = first
    while line is not None:
        fields = line.split(b" ")
        # v1: URL IP date mime length; v2: URL IP date mime status
        # checksum location offset filename length. A URL may hold
        # spaces: the other fields are counted from the right.
        n = 10 if len(fields) >= 10 and fields[-1].isdigit() and len(fields[-8]) == 14 and fields[-8].isdigit() else 5
        url = b" ".join(fields[: len(fields) - n + 1])
        rest = fields[len(fields) - n + 1:]
        date, length = rest[1], int(rest[-1])
        block = f.read(length)
        yield url, date[:14].decode("ascii"), block, None
        line = read_line(f)


def warc_date(v):
    d = "".join(ch for ch in v if ch.isdigit())
    return d[:14]


def warc_records(f, first):
    line = first
    while line is not None:
        if not line.startswith(b"WARC/"):
            raise ValueError("not a WARC record header: %r" % line[:80])
        headers = {}
        while True:
            h = f.readline()
            if not h:
                raise ValueError("truncated WARC header")
            h = h.rstrip(b"\r\n")
            if not h:
                break
            name, _, value = h.partition(b":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers[b"content-length"])
        block = f.read(length)
        if headers.get(b"warc-type") == b"response":
            uri = headers.get(b"warc-target-uri", b"")
            if uri.startswith(b"<") and uri.endswith(b">"):
                uri = uri[1:-1]
            date = warc_date(headers.get(b"warc-date", b"").decode("ascii"))
            pd = headers.get(b"warc-payload-digest")
            yield uri, date, block, pd.decode("ascii") if pd else None
        line = read_line(f)


def index(path, out):
    mismatches = 0
    n = 0
    with open_any(path) as f:
        first = read_line(f)
        if first is None:
            return
        recs = warc_records(f, first) if first.startswith(b"WARC/") else arc_records(f, first)
        out.write(" CDX N b a m s k r M S V g\n")
        for url, date, block, payload_digest in recs:
            if url.startswith(b"filedesc:"):
                continue
            http = parse_http(block)
            if http is None:
                continue
            status, mime, payload = http
            k = sha1_b32(payload)
            if payload_digest and payload_digest.split(":")[-1].upper() != k:
                mismatches += 1
            out.write(" ".join(["-", date, clean_url(url), mime, status, k, "-", "-", "-", "-", "-"]) + "\n")
            n += 1
    sys.stderr.write("%s: %d response records, %d WARC-Payload-Digest mismatches\n" % (path, n, mismatches))


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: index.py FILE.(w)arc[.gz] > FILE.cdx\n")
        sys.exit(2)
    index(sys.argv[1], sys.stdout)


if __name__ == "__main__":
    main()
