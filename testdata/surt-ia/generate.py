#!/usr/bin/python3
"""Regenerate testdata/surt-ia/: the keys the Internet Archive's surt
library (internetarchive/surt 0.3.1) gives for canon's corpus and for the
inputs of surt's own tests, and the differences from canon's Archive keys.

This script is canon's own; it contains no code of surt. It imports surt
from a checkout given on the command line and records what it returns.
See README.md in this directory for the file formats and the exact
commands; in short:

  unshare -rn /usr/bin/python3 testdata/surt-ia/generate.py surt SURT_DIR COMMIT
  unshare -rn /usr/bin/python3 testdata/surt-ia/generate.py heldout SURT_DIR COMMIT MIRRORS
  /usr/bin/python3 testdata/surt-ia/generate.py differences CANON_BINARY

SURT_DIR holds surt's source tree (surt/ and tests/test_surt.py), COMMIT
is the commit it was taken from (recorded only). Run the first two
commands in a network namespace of their own (unshare -rn): surt resolves
some numeric host names with socket.gethostbyname_ex, and nothing should
leave the machine. MIRRORS holds a clone of each repository the held-out
sets come from (HELDOUT below), as MIRRORS/OWNER+NAME/repo, with the
commit HELDOUT names. CANON_BINARY is `go build -o CANON_BINARY ./cmd/canon`.
"""

import ast
import collections
import copy
import gzip
import hashlib
import io
import json
import os
import re
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))  # the repository

# The corpus files, and the TSV each gives.
CORPUS = [
    ("bench/testdata/real.txt", "real.tsv.gz"),
    ("bench/testdata/messy.txt", "messy.tsv.gz"),
    ("testdata/corpus-sample.txt", "corpus-sample.tsv.gz"),
]
# The files whose differences differences.tsv lists (corpus-sample.txt
# is a sample of these two).
DIFF_FILES = CORPUS[:2]

EXC_RE = re.compile(r"^![A-Za-z_][A-Za-z0-9_]*$")


# ---------------------------------------------------------------------------
# TSV fields: "\" TAB CR LF are written \\ \t \r \n (canon -format tsv
# -header writes its input field the same way), nothing else is changed.

def esc(b):
    return (b.replace(b"\\", b"\\\\").replace(b"\t", b"\\t")
             .replace(b"\r", b"\\r").replace(b"\n", b"\\n"))


def unesc(b):
    out = bytearray()
    i = 0
    while i < len(b):
        c = b[i:i + 1]
        if c != b"\\":
            out += c
            i += 1
            continue
        n = b[i + 1:i + 2]
        out += {b"\\": b"\\", b"t": b"\t", b"r": b"\r", b"n": b"\n"}[n]
        i += 2
    return bytes(out)


def read_lines(path):
    data = open(os.path.join(ROOT, path), "rb").read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return data, lines


def write_gz(path, data):
    with open(path, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0,
                           compresslevel=9) as g:
            g.write(data)


def read_tsv_gz(name):
    rows = []
    with gzip.open(os.path.join(HERE, name), "rb") as g:
        for line in g.read().split(b"\n")[:-1]:
            a, b = line.split(b"\t")
            rows.append((unesc(a), unesc(b)))
    return rows


def sha256(b):
    return hashlib.sha256(b).hexdigest()


# ---------------------------------------------------------------------------
# Instrumentation: pass-through counters, which change no result.

class Counting:
    """Calls fn and records (first argument, outcome) of each call."""

    def __init__(self, fn, outcome=lambda r: None):
        self.fn = fn
        self.outcome = outcome
        self.calls = []

    def __call__(self, *a, **kw):
        try:
            r = self.fn(*a, **kw)
        except Exception as e:
            self.calls.append((a[0] if a else None, "!" + type(e).__name__))
            raise
        self.calls.append((a[0] if a else None, self.outcome(r)))
        return r


def setup_surt(surt_dir):
    sys.path.insert(0, os.path.abspath(surt_dir))
    import tldextract
    import tldextract.tldextract as tx
    # tldextract fetches the Public Suffix List over HTTP on its first
    # use and caches it under ~/.cache. Use its documented offline mode
    # instead: no URLs, no cache, the snapshot bundled with the package.
    offline = tx.TLDExtract(suffix_list_urls=(), cache_dir=False,
                            fallback_to_snapshot=True)
    tx.TLD_EXTRACTOR = Counting(offline)
    # surt's GoogleURLCanonicalizer resolves host names that look like
    # dotted or octal numbers with socket.gethostbyname_ex; record them.
    socket.gethostbyname_ex = Counting(socket.gethostbyname_ex, lambda r: r[2][0])
    import surt
    import surt.handyurl
    if not os.path.abspath(surt.__file__).startswith(os.path.abspath(surt_dir)):
        sys.exit("surt was imported from %s, not from %s" % (surt.__file__, surt_dir))
    return surt, tldextract, tx


# ---------------------------------------------------------------------------
# The corpus.

def run_corpus(surt, tx):
    stats = {}
    for src, out in CORPUS:
        data, lines = read_lines(src)
        buf = io.BytesIO()
        excs = collections.Counter()
        exc_examples = {}
        non_utf8 = 0
        tld0 = len(tx.TLD_EXTRACTOR.calls)
        dns0 = len(socket.gethostbyname_ex.calls)
        for line in lines:
            try:
                url = line.decode("utf-8")
            except UnicodeDecodeError:
                url = line  # surt's bytes interface: the same bytes, bytes out
                non_utf8 += 1
            try:
                key = surt.surt(url)
                key = key if isinstance(key, bytes) else key.encode("utf-8")
                if EXC_RE.match(key.decode("latin-1")):
                    sys.exit("a key that reads as an exception: %r" % key)
            except Exception as e:  # noqa: BLE001 -- recorded, by name
                name = type(e).__name__
                excs[name] += 1
                exc_examples.setdefault(name, (line.decode("utf-8", "replace"), str(e)))
                key = b"!" + name.encode("ascii")
            buf.write(esc(line) + b"\t" + esc(key) + b"\n")
        write_gz(os.path.join(HERE, out), buf.getvalue())
        dns = socket.gethostbyname_ex.calls[dns0:]
        stats[out] = {
            "source": src,
            "source_sha256": sha256(data),
            "lines": len(lines),
            "exceptions": dict(sorted(excs.items())),
            "exception_examples": {k: {"input": v[0], "message": v[1]}
                                   for k, v in sorted(exc_examples.items())},
            "non_utf8_lines": non_utf8,
            "tldextract_calls": len(tx.TLD_EXTRACTOR.calls) - tld0,
            "gethostbyname_ex_calls": len(dns),
            "gethostbyname_ex_hosts": sorted(set("%s -> %s" % (h.decode("latin-1") if isinstance(h, bytes) else h, r) for h, r in dns)),
        }
    return stats


# ---------------------------------------------------------------------------
# surt's tests/test_surt.py. Every assert of every test function is
# rewritten (in the AST, as pytest rewrites asserts) into a call that
# records the call's input and keyword arguments, the value surt returns,
# the value the test expects and whether they agree; then the functions
# are run, with each parametrize row. Nothing of the test file is copied
# into the output but its string data.

class _Mark:
    def parametrize(self, names, rows):
        def deco(f):
            f._params = ([n.strip() for n in names.split(",")], rows)
            return f
        return deco

    def xfail(self, reason=None, **_):
        def deco(f):
            f._xfail = reason
            return f
        return deco


class _PytestStub:
    mark = _Mark()


def jval(v):
    """A JSON value and its Python type name."""
    if isinstance(v, bytes):
        return v.decode("latin-1"), "bytes"
    if v is None or isinstance(v, (str, bool, int)):
        return v, type(v).__name__
    if isinstance(v, (list, tuple)):
        return [jval(x)[0] for x in v], type(v).__name__
    return repr(v), type(v).__name__


SURT_ROOTS = {"surt", "handyurl"}


def root_name(node):
    while isinstance(node, (ast.Attribute, ast.Call)):
        node = node.value if isinstance(node, ast.Attribute) else node.func
    return node.id if isinstance(node, ast.Name) else None


class Rewriter(ast.NodeTransformer):
    def __init__(self, src):
        self.src = src
        self.aliases = {}

    def visit_FunctionDef(self, fn):
        if not fn.name.startswith("test_"):
            return fn
        self.aliases = {}
        for st in fn.body:
            if (isinstance(st, ast.Assign) and len(st.targets) == 1
                    and isinstance(st.targets[0], ast.Name)
                    and isinstance(st.value, ast.Attribute)):
                self.aliases[st.targets[0].id] = st.value
        fn.body = [self.rewrite(st) if isinstance(st, ast.Assert) else st
                   for st in fn.body]
        return fn

    def calls(self, node):
        """The calls of an expression's chain, outermost first."""
        out = []
        while isinstance(node, (ast.Attribute, ast.Call)):
            if isinstance(node, ast.Call):
                out.append(node)
                # go into the first argument when it is itself a call
                if node.args and isinstance(node.args[0], ast.Call):
                    out.extend(self.calls(node.args[0]))
                    break
                node = node.func
            else:
                node = node.value
        return out

    def rewrite(self, st):
        test = st.test
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            left, op, right = test.left, type(test.ops[0]).__name__, test.comparators[0]
        else:
            left, op, right = test, "truthy", ast.Constant(True)
        calls = self.calls(left)
        inner = next((c for c in reversed(calls) if c.args or c.keywords), None)
        inp_node, inp_kw = None, None
        if inner is not None:
            if inner.args:
                inp_node = inner.args[0]
            elif inner.keywords and inner.keywords[0].arg:
                inp_node, inp_kw = inner.keywords[0].value, inner.keywords[0].arg
        kw_items = []  # (name or None for **, node)
        for c in calls:
            for k in c.keywords:
                if inp_kw and c is inner and k.arg == inp_kw:
                    continue
                kw_items.append((k.arg, k.value))
        # the call's shape: the input as INPUT, keyword arguments as **ARGS
        tmpl = self.template(left, inp_node)
        lam = lambda e: ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=e)
        kw_list = ast.List(elts=[
            ast.Tuple(elts=[ast.Constant(name), lam(node),
                            ast.Constant(None if isinstance(node, ast.Constant) else ast.get_source_segment(self.src, node))],
                      ctx=ast.Load())
            for name, node in kw_items], ctx=ast.Load())
        call = ast.Call(func=ast.Name("_record", ast.Load()), args=[
            ast.Constant(st.lineno), ast.Constant(tmpl),
            lam(inp_node) if inp_node is not None else ast.Constant(None),
            ast.Constant(inp_kw), kw_list, lam(left), ast.Constant(op), lam(right),
            ast.Constant(root_name(left) in SURT_ROOTS or root_name(left) in self.aliases),
        ], keywords=[])
        return ast.copy_location(ast.Expr(call), st)

    def template(self, left, inp_node):
        """The call's shape: the input written INPUT, the keyword arguments
        **ARGS, local aliases of surt's functions by their names."""
        aliases = self.aliases
        pos = lambda n: (getattr(n, "lineno", None), getattr(n, "col_offset", None),
                         getattr(n, "end_col_offset", None))
        want = pos(inp_node) if inp_node is not None else None

        class T(ast.NodeTransformer):
            def visit_Name(self, n):
                return aliases.get(n.id, n)

            def visit_Call(self, c):
                is_inp = lambda a: want is not None and pos(a) == want
                args = [ast.Name("INPUT", ast.Load()) if is_inp(a) else self.visit(a) for a in c.args]
                kws, had = [], False
                for k in c.keywords:
                    if is_inp(k.value):
                        kws.append(ast.keyword(k.arg, ast.Name("INPUT", ast.Load())))
                    else:
                        had = True
                if had:
                    kws.append(ast.keyword(None, ast.Name("ARGS", ast.Load())))
                return ast.Call(func=self.visit(c.func), args=args, keywords=kws)

        return ast.unparse(T().visit(copy.deepcopy(left)))


def run_tests(surt, tx, surt_dir):
    path = os.path.join(surt_dir, "tests", "test_surt.py")
    src = open(path, encoding="utf-8").read()
    tree = ast.parse(src)
    tree = Rewriter(src).visit(tree)
    ast.fix_missing_locations(tree)
    records = []
    current = {}

    def _record(line, tmpl, inp, inp_kw, kws, left, op, right, is_surt):
        if not is_surt:
            return  # an assert about types only (test_surt_return_type): below
        rec = collections.OrderedDict()
        rec["test"] = current["test"]
        rec["line"] = line
        if current.get("params") is not None:
            rec["params"] = current["params"]
        rec["call"] = tmpl
        v = inp() if inp is not None else None
        rec["input"], rec["input_type"] = jval(v)
        if inp_kw:
            rec["input_keyword"] = inp_kw
        args = collections.OrderedDict()
        for name, fn, srcseg in kws:
            val = fn()
            if name is None:  # **opts
                for k, x in val.items():
                    args[k] = jval(x)[0]
            elif isinstance(val, (str, bytes, bool, int)) or val is None:
                args[name] = jval(val)[0]
            else:
                args[name] = {"python": srcseg}
        rec["arguments"] = args
        rec["compare"] = {"Eq": "==", "Is": "is", "truthy": "truthy"}.get(op, op)
        exp = right()
        rec["expected"], rec["expected_type"] = jval(exp)
        n0 = len(tx.TLD_EXTRACTOR.calls)
        try:
            got = left()
            rec["got"], rec["got_type"] = jval(got)
            if op == "Eq":
                ok = got == exp and type(got) is type(exp)
            elif op == "Is":
                ok = got is exp
            else:
                ok = bool(got)
        except Exception as e:  # noqa: BLE001
            rec["got"], rec["got_type"] = "!" + type(e).__name__, "exception"
            rec["got_exception"] = "%s: %s" % (type(e).__name__, e)
            ok = False
        rec["agree"] = ok
        rec["uses_tldextract"] = len(tx.TLD_EXTRACTOR.calls) > n0
        if current.get("xfail"):
            rec["xfail"] = current["xfail"]
        records.append(rec)

    sys.modules.setdefault("pytest", _PytestStub())
    ns = {"__name__": "surt_test_file", "_record": _record}
    exec(compile(tree, path, "exec"), ns)
    for name, fn in list(ns.items()):
        if not name.startswith("test_") or not callable(fn):
            continue
        current.clear()
        current["test"] = name
        current["xfail"] = getattr(fn, "_xfail", None)
        if hasattr(fn, "_params"):
            names, rows = fn._params
            for row in rows:
                row = row if len(names) > 1 else (row,)
                current["params"] = {n: jval(v)[0] for n, v in zip(names, row)}
                fn(*row)
        else:
            current["params"] = None
            fn()
    # test_surt_return_type checks the types surt.surt returns without
    # comparing a key; record the two calls it makes, with their results.
    rt_lines = sorted(n.lineno for f in ast.walk(ast.parse(src)) if isinstance(f, ast.FunctionDef)
                      and f.name == "test_surt_return_type" for n in ast.walk(f)
                      if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                      and root_name(n.value) == "surt")
    for line, v in zip(rt_lines, (b"http://example.com/", "http://example.com/")):
        got = surt.surt(v)
        rec = collections.OrderedDict([
            ("test", "test_surt_return_type"), ("line", line),
            ("call", "surt.surt(INPUT)"), ("input", jval(v)[0]), ("input_type", jval(v)[1]),
            ("arguments", {}), ("compare", "type"),
            ("expected", None), ("expected_type", jval(v)[1]),
            ("got", jval(got)[0]), ("got_type", jval(got)[1]),
            ("agree", type(got) is type(v)), ("uses_tldextract", False),
            ("note", "the test asserts only that the result has the input's type (bytes in, bytes out; str in, str out)"),
        ])
        records.append(rec)
    records.sort(key=lambda r: (r["line"], json.dumps(r.get("params"), sort_keys=True),
                                r["input_type"]))
    return records


def cmd_surt(surt_dir, commit):
    surt, tldextract, tx = setup_surt(surt_dir)
    import six
    setup_py = open(os.path.join(surt_dir, "setup.py"), encoding="utf-8").read()
    version = re.search(r"version='([^']+)'", setup_py).group(1)
    snap = os.path.join(os.path.dirname(tldextract.__file__), ".tld_set_snapshot")
    test_file = open(os.path.join(surt_dir, "tests", "test_surt.py"), "rb").read()

    corpus = run_corpus(surt, tx)
    tests = run_tests(surt, tx, surt_dir)
    meta = collections.OrderedDict([
        ("surt", {"repository": "https://github.com/internetarchive/surt",
                  "commit": commit, "version": version,
                  "tests_test_surt_py_sha256": sha256(test_file)}),
        ("python", sys.version.split()[0]),
        ("tldextract", {"version": tldextract.__version__,
                        "mode": "TLDExtract(suffix_list_urls=(), cache_dir=False): the bundled snapshot, no network",
                        "snapshot_sha256": sha256(open(snap, "rb").read())}),
        ("six", six.__version__),
    ])
    with open(os.path.join(HERE, "surt-tests.json"), "w", encoding="utf-8") as f:
        doc = collections.OrderedDict([
            ("comment", "Every assert of internetarchive/surt tests/test_surt.py, run: the call's shape (INPUT, **ARGS), "
                        "input, keyword arguments, the value the test expects, the value surt returned, and whether they agree "
                        "(strings of Python bytes are written as Latin-1 text, with input_type/expected_type/got_type \"bytes\"). "
                        "Regenerate with generate.py (README.md)."),
            ("meta", meta),
            ("counts", {"records": len(tests),
                        "agree": sum(r["agree"] for r in tests),
                        "disagree": sum(not r["agree"] for r in tests),
                        "surt.surt": sum(r["call"].startswith("surt.surt(") for r in tests)}),
            ("records", tests),
        ])
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    manifest = collections.OrderedDict([("meta", meta), ("corpus", corpus)])
    with open(os.path.join(HERE, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(json.dumps(manifest, indent=1, ensure_ascii=False)[:4000])
    print("tests: %d records, %d disagree" % (len(tests), sum(not r["agree"] for r in tests)))


# ---------------------------------------------------------------------------
# Held-out sets: URLs in no file of canon but these, keyed by surt, so
# that canon's Archive keys are measured on URLs its rules were not made
# from. Each set is read from a repository at a fixed commit, the way its
# "extract" says; heldout/sets.json records where, how and what came out.

HELDOUT_DIR = os.path.join(HERE, "heldout")

HELDOUT = [
    # The lists of ada-url/url-various-datasets: one URL a line.
    {"name": "kasztp", "kind": "real", "repo": "ada-url/url-various-datasets",
     "commit": "96a6fdd1e36a98904025ed5d1efd5ac9375bc18c", "paths": ["others/kasztp.txt"],
     "extract": "lines",
     "licence": "MIT or Apache-2.0 (LICENSE-MIT, LICENSE_APACHE of ada-url/url-various-datasets, Copyright 2023 Ada authors); "
                "the repository's README says the list comes from kasztp/URL_Shortener (MIT License)",
     "what": "test URLs of kasztp/URL_Shortener, as the dataset repository republishes them"},
    {"name": "userbait", "kind": "real", "repo": "ada-url/url-various-datasets",
     "commit": "96a6fdd1e36a98904025ed5d1efd5ac9375bc18c", "paths": ["others/userbait.txt"],
     "extract": "lines",
     "licence": "MIT or Apache-2.0 (LICENSE-MIT, LICENSE_APACHE of ada-url/url-various-datasets, Copyright 2023 Ada authors); "
                "the repository's README says the list comes from userbait/phishing_sites_detector (\"unknown copyright\")",
     "what": "URLs of userbait/phishing_sites_detector (phishing and legitimate sites), as the dataset repository republishes them"},
    {"name": "node-files", "kind": "real", "repo": "ada-url/url-various-datasets",
     "commit": "96a6fdd1e36a98904025ed5d1efd5ac9375bc18c", "paths": ["files/node_files.txt"],
     "extract": "lines", "sample": 10,
     "licence": "MIT or Apache-2.0 (LICENSE-MIT, LICENSE_APACHE of ada-url/url-various-datasets, Copyright 2023 Ada authors)",
     "what": "the source files of a Node.js snapshot as file: URLs; every 10th line (lines 1, 11, 21, ...), as the whole list "
             "(2.5 MB) repeats one shape"},
    {"name": "isaacs-files", "kind": "real", "repo": "ada-url/url-various-datasets",
     "commit": "96a6fdd1e36a98904025ed5d1efd5ac9375bc18c", "paths": ["files/isaacs_files.txt"],
     "extract": "lines",
     "licence": "MIT or Apache-2.0 (LICENSE-MIT, LICENSE_APACHE of ada-url/url-various-datasets, Copyright 2023 Ada authors)",
     "what": "file: URLs of one developer's files, and the node: URLs among them"},
    # Links in documentation: every URL written in the file.
    {"name": "awesome-go", "kind": "real", "repo": "avelino/awesome-go",
     "commit": "c4bc4eb428f49593eac16307f76e691dcac06589", "paths": ["README.md"],
     "extract": "markdown",
     "licence": "MIT, Copyright (c) 2014 Thiago Avelino (LICENSE of avelino/awesome-go)",
     "what": "the links of the awesome-go list (Go projects, their documentation and badges)"},
    {"name": "public-apis", "kind": "real", "repo": "public-apis/public-apis",
     "commit": "c045a2eb505f0f8b7992bb4af53cc020f25003fd", "paths": ["README.md"],
     "extract": "markdown",
     "licence": "MIT, Copyright (c) 2022 public-apis (LICENSE of public-apis/public-apis)",
     "what": "the links of the public-apis list (web APIs and their documentation)"},
    # URLs in other projects' test suites: the string literals that are URLs.
    {"name": "heritrix3-tests", "kind": "test-suite", "repo": "internetarchive/heritrix3",
     "commit": "5ada2a784a7b9ee066d6181c40777f41dc4357a3", "paths": [r"src/test/java/.*\.java$"],
     "extract": "java",
     "licence": "Apache-2.0 (LICENSE of internetarchive/heritrix3)",
     "what": "the URL string literals of Heritrix's Java tests (crawler, canonicalization, session ids, extractors)"},
    {"name": "w3lib-tests", "kind": "test-suite", "repo": "scrapy/w3lib",
     "commit": "ed01dc04608336967356417f472a691b82bcfbe4", "paths": [r"^tests/.*\.py$"],
     "extract": "python",
     "licence": "BSD-3-Clause, Copyright (c) w3lib and Scrapy developers (LICENSE of scrapy/w3lib)",
     "what": "the URL string literals of w3lib's Python tests (URL canonicalization and safety)"},
]

MARKDOWN_URL = re.compile(rb"(?:https?|ftp|file)://[^\s<>\"'`)\]]+", re.I)
LITERAL_URL = re.compile(r"^(?:https?|ftp|file)://", re.I)
JAVA_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def git_show(repo_dir, commit, path):
    return subprocess.run(["git", "-C", repo_dir, "show", "%s:%s" % (commit, path)],
                          stdout=subprocess.PIPE, check=True).stdout


def git_files(repo_dir, commit):
    out = subprocess.run(["git", "-C", repo_dir, "ls-tree", "-r", "--name-only", commit],
                         stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")
    return [f for f in out.split("\n") if f]


def java_unescape(s):
    """A Java string literal's text, its escapes read; ValueError for an
    escape Java does not have (a literal misread around a char '"')."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n == "u":
            j = i + 1
            while s[j] == "u":
                j += 1
            out.append(chr(int(s[j:j + 4], 16)))
            i = j + 4
        elif n in "01234567":
            m = re.match(r"[0-7]{1,3}", s[i + 1:]).group(0)
            out.append(chr(int(m, 8)))
            i += 1 + len(m)
        elif n in "\\\"'ntrbfs":
            out.append({"\\": "\\", '"': '"', "'": "'", "n": "\n", "t": "\t", "r": "\r",
                        "b": "\b", "f": "\f", "s": " "}[n])
            i += 2
        else:
            raise ValueError("escape \\" + n)
    return "".join(out)


def literals(path, src):
    """The string literals of a Python or Java source, in order."""
    if path.endswith(".py"):
        tree = ast.parse(src)
        in_fstring = set()
        for n in ast.walk(tree):
            if isinstance(n, ast.JoinedStr):
                in_fstring.update(id(v) for v in ast.walk(n))
        found = sorted((n.lineno, n.col_offset, n.value) for n in ast.walk(tree)
                       if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in in_fstring)
        return [v for _, _, v in found]
    # Java: comments out, a char literal '"' out, then each line's literals.
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    src = re.sub(r"(?m)^\s*//.*$", " ", src)
    src = src.replace("'\"'", "' '")
    out = []
    for m in JAVA_STRING.finditer(src):
        try:
            out.append(java_unescape(m.group(1)))
        except (ValueError, IndexError):
            pass
    return out


def heldout_lines(spec, repo_dir, corpus):
    """The set's lines (bytes) and the SHA-256 of each source file read."""
    commit = spec["commit"]
    hashes = collections.OrderedDict()
    if spec["extract"] == "lines":
        data = git_show(repo_dir, commit, spec["paths"][0])
        hashes[spec["paths"][0]] = sha256(data)
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        return lines[::spec.get("sample", 1)], hashes
    # Extracted sets: each URL once, in order of first appearance, none
    # that is a line of canon's corpus.
    seen, out = set(), []
    if spec["extract"] == "markdown":
        files = spec["paths"]
    else:
        files = [f for f in git_files(repo_dir, commit) if any(re.search(p, f) for p in spec["paths"])]
    for f in files:
        data = git_show(repo_dir, commit, f)
        hashes[f] = sha256(data)
        if spec["extract"] == "markdown":
            # Every "scheme://..." up to white space or a delimiter of
            # Markdown or HTML, less the punctuation that ends a sentence.
            urls = [m.group(0).rstrip(b".,;:!?*_") for m in MARKDOWN_URL.finditer(data)]
        else:
            urls = [u.encode("utf-8", "surrogatepass") for u in literals(f, data.decode("utf-8"))
                    if LITERAL_URL.match(u) and not any(c in u for c in "\t\n\r")]
        for u in urls:
            if u not in seen and u not in corpus:
                seen.add(u)
                out.append(u)
    return out, hashes


def heldout_corpus():
    corpus = set()
    for src, _ in DIFF_FILES:
        corpus.update(read_lines(src)[1])
    return corpus


def cmd_heldout(surt_dir, commit, mirrors):
    surt, tldextract, tx = setup_surt(surt_dir)
    corpus = heldout_corpus()
    os.makedirs(HELDOUT_DIR, exist_ok=True)
    sets = []
    for spec in HELDOUT:
        repo_dir = os.path.join(mirrors, spec["repo"].replace("/", "+"), "repo")
        lines, hashes = heldout_lines(spec, repo_dir, corpus)
        buf = io.BytesIO()
        excs = collections.Counter()
        dns0 = len(socket.gethostbyname_ex.calls)
        tld0 = len(tx.TLD_EXTRACTOR.calls)
        non_utf8 = 0
        for line in lines:
            try:
                url = line.decode("utf-8")
            except UnicodeDecodeError:
                url = line
                non_utf8 += 1
            try:
                key = surt.surt(url)
                key = key if isinstance(key, bytes) else key.encode("utf-8")
            except Exception as e:  # noqa: BLE001 -- recorded, by name
                excs[type(e).__name__] += 1
                key = b"!" + type(e).__name__.encode("ascii")
            buf.write(esc(line) + b"\t" + esc(key) + b"\n")
        name = spec["name"] + ".tsv.gz"
        write_gz(os.path.join(HELDOUT_DIR, name), buf.getvalue())
        rec = collections.OrderedDict((k, spec[k]) for k in ("name", "kind", "repo", "commit", "paths", "extract"))
        rec["repository"] = "https://github.com/" + spec["repo"]
        if "sample" in spec:
            rec["sample"] = spec["sample"]
        rec["what"] = spec["what"]
        rec["licence"] = spec["licence"]
        rec["file"] = name
        rec["lines"] = len(lines)
        # The SHA-256 of the list of the files read, as sha256sum writes
        # it ("HASH  PATH" lines, by path): one line per file of the set.
        rec["source_files"] = len(hashes)
        rec["source_sha256sum_sha256"] = sha256("".join("%s  %s\n" % (h, f) for f, h in sorted(hashes.items())).encode("utf-8"))
        rec["exceptions"] = dict(sorted(excs.items()))
        rec["non_utf8_lines"] = non_utf8
        rec["tldextract_calls"] = len(tx.TLD_EXTRACTOR.calls) - tld0
        rec["gethostbyname_ex_calls"] = len(socket.gethostbyname_ex.calls) - dns0
        sets.append(rec)
        print("%-16s %6d lines %s" % (spec["name"], len(lines), dict(excs)))
    meta = collections.OrderedDict([
        ("surt", {"repository": "https://github.com/internetarchive/surt", "commit": commit}),
        ("python", sys.version.split()[0]),
        ("tldextract", tldextract.__version__),
    ])
    doc = collections.OrderedDict([
        ("comment", "Held-out sets: URLs of other projects keyed by the surt library (see README.md). "
                    "Regenerate with generate.py heldout."),
        ("meta", meta), ("sets", sets)])
    with open(os.path.join(HELDOUT_DIR, "sets.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")


# ---------------------------------------------------------------------------
# Differences from canon's Archive keys (canon -p archive -format surt).


def canon_run(canon_bin, lines, fmt):
    p = subprocess.run([canon_bin, "-q", "-p", "archive", "-format", fmt],
                       input=b"".join(l + b"\n" for l in lines),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    out = p.stdout.split(b"\n")
    if out and out[-1] == b"":
        out.pop()
    if len(out) != len(lines):
        sys.exit("canon gave %d lines for %d inputs" % (len(out), len(lines)))
    return out


def canon_version(canon_bin):
    p = subprocess.run([canon_bin, "-list-profiles"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for l in p.stdout.decode().splitlines():
        if "key version archive/" in l:
            return l.split("key version", 1)[1].strip()
    return "?"


HOST_KEY = re.compile(rb"^([^/?#:)]*)(:\d+)?\)(.*)$", re.S)


def split_key(k):
    """(labels in key order, port or b"", rest) of a key with a host,
    None for a key without one (scheme:...)."""
    m = HOST_KEY.match(k)
    if not m:
        return None
    return m.group(1).split(b","), m.group(2) or b"", m.group(3)


def join_key(labels, port, rest):
    return b",".join(labels) + port + b")" + rest


# The characters escapeOnce leaves as they are (quote_from_bytes's
# always-safe set and the safe string surt passes it): all printable
# ASCII but space, "#" and "%". surt decodes every escape, so an escape of
# one of these never survives in its key.
SURT_SAFE = set(b"!\"$&'()*+,-./:;<=>?@[\\]^_`{|}~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
ESC = re.compile(rb"%([0-9a-fA-F]{2})")
SESSION = re.compile(rb"(jsessionid=[0-9a-z]{32}|phpsessid=[0-9a-z]{32}|sid=[0-9a-z]{32}|aspsessionid[a-z]{8}=[a-z]{24}|cfid=[^&]+&cftoken=[^&]+)")


def scheme_of(inp):
    m = re.match(rb"^[\x00-\x20]*([a-zA-Z][a-zA-Z0-9+.-]*):", inp)
    return m.group(1).lower() if m else b""


# Each class: a name, and a function that moves canon's key (split) one
# step towards what surt does, or returns None when that step does not
# apply. They run in this order; a row's class is the list of steps that
# changed canon's key, when the result is surt's key.

def t_empty_labels(c, s, inp):
    labels, port, rest = c
    if b"" not in labels:
        return None
    dotted = b".".join(reversed(labels))
    dotted = dotted.replace(b"..", b".").strip(b".")  # what surt does to a host
    if not dotted:
        return None
    return dotted.split(b".")[::-1], port, rest


def t_www(c, s, inp):
    labels, port, rest = c
    if len(labels) > 1 and re.fullmatch(rb"www\d*", labels[-1]):
        return labels[:-1], port, rest
    return None


def t_idna(c, s, inp):
    labels, port, rest = c
    if s is None or labels == s[0]:
        return None
    if any(l.startswith(b"xn--") for l in labels + s[0]):
        return s[0], port, rest
    return None


def t_port(name):
    def t(c, s, inp):
        labels, port, rest = c
        if s is None or port == s[1]:
            return None
        sch = scheme_of(inp)
        if name == "default-port-kept" and port == b"" and s[1] == {b"ftp": b":21", b"ws": b":80", b"wss": b":443"}.get(sch):
            return labels, s[1], rest
        if name == "port-0" and re.fullmatch(rb":0+", port) and s[1] == b"":
            return labels, b"", rest
        return None
    return t


def t_escapes(c, s, inp):
    labels, port, rest = c
    new = ESC.sub(lambda m: bytes([int(m.group(1), 16)]) if int(m.group(1), 16) in SURT_SAFE else m.group(0), rest)
    if new == rest:
        return None
    return labels, port, new


def t_root_dots(c, s, inp):
    labels, port, rest = c
    if s is None or not re.match(rb"^(/\.\.)+(/|$)", s[2]) or rest == s[2]:
        return None
    return labels, port, s[2]


def t_session(c, s, inp):
    labels, port, rest = c
    if s is None or rest == s[2] or not SESSION.search(rest):
        return None
    return labels, port, s[2]


def t_numeric_host(c, s, inp):
    labels, port, rest = c
    if s is None or labels == s[0]:
        return None
    numeric = lambda ls: all(re.fullmatch(rb"[0-9]+|0x[0-9a-f]*", l) for l in ls if l)
    if numeric(labels) or numeric(s[0]):
        return s[0], port, rest
    return None


def t_backslash_path(c, s, inp):
    labels, port, rest = c
    if s is None or b"\\" not in s[2] or b"\\" in rest:
        return None
    return labels, port, s[2]


SESSION_NAME = re.compile(rb"(?:^|[?&;])[a-z]*(?:sid|sessionid|cfid|cftoken)[a-z]{0,8}=", re.I)


def t_session_kept(c, s, inp):
    # Before archive/9: a session id that canon's RemoveSessionIDs
    # removed (its own shapes) and the library's patterns keep.
    labels, port, rest = c
    if s is None or rest == s[2] or len(SESSION_NAME.findall(s[2])) <= len(SESSION_NAME.findall(rest)):
        return None
    return labels, port, s[2]


STEPS = [
    ("numeric-host", t_numeric_host),
    ("empty-labels", t_empty_labels),
    ("www-public-suffix", t_www),
    ("idna-2003", t_idna),
    ("default-port-kept", t_port("default-port-kept")),
    ("port-0", t_port("port-0")),
    ("escapes-surt-decodes", t_escapes),
    ("dots-at-root", t_root_dots),
    ("session-id-mid-parameter", t_session),
    ("backslash-in-path", t_backslash_path),
    ("session-id-kept", t_session_kept),
]

# Classes of rows where one key has a host and the other none, or canon
# has no key; decided on the input.
def whole_class(inp, ck, sk):
    low = inp.lower()
    sch = scheme_of(inp)
    if ck == b"":
        return "canon-rejects"
    if EXC_RE.match(sk.decode("latin-1")):
        return "surt-rejects"
    if sch == b"file":
        return file_class(inp, ck, sk)
    if authority_backslash(inp):
        return "backslash-in-authority"
    if re.match(rb"^\s*https?://https?://", low):
        return "repeated-scheme"
    m = re.match(rb"^\s*[a-z][a-z0-9+.-]*://([^/?#]*)", low)
    if m and m.group(1).split(b":")[0].strip(b".") == b"" and m.group(1)[:1] == b".":
        return "host-only-dots"
    if re.match(rb"^\s*[a-z][a-z0-9+.-]*:///", low):
        return "slashes-before-host"
    return None


def authority_backslash(inp):
    """Whether a "\\" is in what surt reads as the authority: among the
    slashes after the scheme's ":", or before the first "/", "?" or "#"
    after them (surt's parser reads "/" alone; the URL Standard ends a
    special URL's authority at a "\\")."""
    s = inp.strip()
    m = re.match(rb"^[a-zA-Z][a-zA-Z0-9+.-]*:", s)
    rest = s[m.end():] if m else s
    return b"\\" in re.match(rb"^[/\\]*[^/?#]*", rest).group(0)


def file_class(inp, ck, sk):
    """The class of a file: URL whose keys differ: the scheme's case
    (surt writes a URL without a host with its scheme as written), a
    drive letter read as a host ("file://c:/"), a host of dots alone
    with dot segments after it, or a final "%2F" (surt drops one final
    "/" after decoding, canon every one), each joined with "+" when a row
    has two; "file-url" for anything else."""
    written = inp.strip().split(b":", 1)[0]
    done = []
    if written != b"file" and sk.startswith(written + b":"):
        sk = b"file" + sk[len(written):]
        done.append("file-scheme-case")
    low = inp.lower().strip()
    if ck != sk:
        if sk == b"file:" and ck == b"file:/":
            done.append("file-empty-path")
        elif re.match(rb"^file://[a-z]:", low):
            done.append("file-drive-as-host")
        elif re.match(rb"^file://\.+/", low):
            done.append("file-dots-host")
        elif ck + b"/" == sk and re.search(rb"%2f(#|$)", low):
            done.append("file-encoded-final-slash")
        else:
            done.append("file-url")
    return "+".join(done)


def classify(inp, ck, sk):
    cls = whole_class(inp, ck, sk)
    if cls:
        return cls
    c, s = split_key(ck), split_key(sk)
    if c is None or s is None:
        return "other"
    done = []
    for name, t in STEPS:
        r = t(c, s, inp)
        if r is not None and r != c:
            c = r
            done.append(name)
        if join_key(*c) == sk:
            return "+".join(done)
    return "other"


def heldout_differences(canon_bin, version, head):
    """heldout/differences.tsv and heldout/figures.json: every held-out
    line whose key differs, by class, and each set's counts."""
    doc = json.load(open(os.path.join(HELDOUT_DIR, "sets.json"), encoding="utf-8"))
    rows, figures = [], collections.OrderedDict()
    for spec in doc["sets"]:
        surt_rows = []
        with gzip.open(os.path.join(HELDOUT_DIR, spec["file"]), "rb") as g:
            for line in g.read().split(b"\n")[:-1]:
                a, b = line.split(b"\t")
                surt_rows.append((unesc(a), unesc(b)))
        inputs = [r[0] for r in surt_rows]
        keys = canon_run(canon_bin, inputs, "surt")
        kinds = canon_run(canon_bin, inputs, "jsonl")
        st = collections.Counter()
        classes = collections.Counter()
        for n, ((inp, sk), ck, kj) in enumerate(zip(surt_rows, keys, kinds), 1):
            surt_fails = bool(EXC_RE.match(sk.decode("latin-1")))
            if ck == sk:
                st["equal"] += 1
                continue
            if ck == b"" and surt_fails:
                st["both_reject"] += 1
                continue
            cls = classify(inp, ck, sk)
            st["canon_rejects" if ck == b"" else "surt_rejects" if surt_fails else "differ"] += 1
            classes[cls] += 1
            note = json.loads(kj)["error"] if ck == b"" else ""
            rows.append((spec["name"], inp, ck, sk, cls, n, note))
        both = st["equal"] + st["differ"]
        figures[spec["name"]] = collections.OrderedDict([
            ("kind", spec["kind"]), ("lines", len(surt_rows)),
            ("equal", st["equal"]), ("both_reject", st["both_reject"]),
            ("canon_rejects", st["canon_rejects"]), ("surt_rejects", st["surt_rejects"]),
            ("differ", st["differ"]),
            ("equal_percent_of_both_key", round(100.0 * st["equal"] / both, 3) if both else None),
            ("classes", dict(sorted(classes.items()))),
        ])
        print("%-16s %s" % (spec["name"], dict(figures[spec["name"]])))
    buf = io.BytesIO()
    buf.write(("# canon -p archive -format surt, key version %s, built at commit %s; surt 0.3.1 keys from heldout/*.tsv.gz\n"
               % (version, head)).encode())
    buf.write(b"# set\tinput\tcanon key\tsurt key\tclass\tline\tnote\n")
    for r in rows:
        buf.write(b"\t".join([r[0].encode(), esc(r[1]), esc(r[2]), esc(r[3]), r[4].encode(),
                              str(r[5]).encode(), esc(r[6].encode("utf-8"))]) + b"\n")
    open(os.path.join(HELDOUT_DIR, "differences.tsv"), "wb").write(buf.getvalue())
    out = collections.OrderedDict([
        ("comment", "Each held-out set's lines by outcome under canon's Archive keys in SURT form (see README.md); "
                    "written by generate.py differences."),
        ("key_version", version), ("sets", figures)])
    with open(os.path.join(HELDOUT_DIR, "figures.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")


def cmd_differences(canon_bin):
    rows = []
    stats = collections.Counter()
    for src, out in DIFF_FILES:
        surt_rows = read_tsv_gz(out)
        inputs = [r[0] for r in surt_rows]
        _, lines = read_lines(src)
        if inputs != lines:
            sys.exit("%s does not hold the lines of %s: regenerate it" % (out, src))
        keys = canon_run(canon_bin, inputs, "surt")
        kinds = canon_run(canon_bin, inputs, "jsonl")
        for n, ((inp, sk), ck, kj) in enumerate(zip(surt_rows, keys, kinds), 1):
            stats["lines"] += 1
            if ck == sk:
                stats["same key"] += 1
                continue
            if ck == b"" and sk.startswith(b"!"):
                stats["both reject"] += 1
                continue
            cls = classify(inp, ck, sk)
            note = ""
            if cls == "canon-rejects":
                note = json.loads(kj)["error"]
            rows.append((inp, ck, sk, cls, "%s:%d" % (os.path.basename(src), n), note))
    order = [name for name, _ in STEPS]
    first = ["canon-rejects", "file-scheme-case", "file-drive-as-host", "file-dots-host", "file-encoded-final-slash", "file-empty-path", "file-url"]
    rank = lambda c: (first + order).index(c.split("+")[0]) if c.split("+")[0] in (first + order) else 99
    rows.sort(key=lambda r: (rank(r[3]), r[3], r[4].split(":")[0] != "real.txt", int(r[4].split(":")[1])))
    buf = io.BytesIO()
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE).stdout.decode().strip()
    buf.write(("# canon -p archive -format surt, key version %s, built at commit %s; surt 0.3.1 keys from the *.tsv.gz files\n"
               % (canon_version(canon_bin), head)).encode())
    buf.write(b"# input\tcanon key\tsurt key\tclass\tline\tnote\n")
    for r in rows:
        buf.write(b"\t".join([esc(r[0]), esc(r[1]), esc(r[2]), r[3].encode(), r[4].encode(),
                              esc(r[5].encode("utf-8"))]) + b"\n")
    open(os.path.join(HERE, "differences.tsv"), "wb").write(buf.getvalue())
    print("canon", canon_version(canon_bin))
    print(dict(stats), "differences:", len(rows), "distinct inputs:", len(set(r[0] for r in rows)))
    by = collections.OrderedDict()
    for r in rows:
        by.setdefault(r[3], []).append(r)
    for cls, rs in sorted(by.items(), key=lambda kv: -len(kv[1])):
        r = rs[0]
        print("%-40s %5d  e.g. %s | %s | %s" % (cls, len(rs), r[0].decode(), r[1].decode(), r[2].decode()))
    if os.path.exists(os.path.join(HELDOUT_DIR, "sets.json")):
        heldout_differences(canon_bin, canon_version(canon_bin), head)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "surt":
        cmd_surt(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "heldout":
        cmd_heldout(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 3 and sys.argv[1] == "differences":
        cmd_differences(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
