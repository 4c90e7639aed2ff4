// whatwg.js: the oracle of canon's TestWHATWGDifferentialNode.
//
// Reads one JSON object per line on standard input,
//
//     {"in": "<input>", "base": "<base URL>" | null}
//
// and writes one JSON line per input line, in input order:
//
//     {"href": "<href of new URL(in, base)>", "node": "<href>" | null}
//     {"failure": true, "node": "<href>" | null}
//
// where href/failure are the answer of whatwg-url (the URL Standard's
// reference implementation, pinned in package.json) and "node" is the
// answer of node's built-in URL (ada), null when it throws. A line that is
// not such an object gets {"error": "<message>"}; the Go test fails on it.
//
// `node whatwg.js --versions` prints the versions of node, ada and the
// installed whatwg-url as one JSON line.
//
// One process serves any number of inputs; output is written in batches.
"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");

if (process.argv[2] === "--versions") { // before loading whatwg-url, which may not load on this node
  const pkg = path.join(__dirname, "node_modules", "whatwg-url", "package.json");
  process.stdout.write(JSON.stringify({
    node: process.versions.node,
    ada: process.versions.ada || null,
    whatwgurl: fs.existsSync(pkg) ? JSON.parse(fs.readFileSync(pkg, "utf8")).version : null,
  }) + "\n");
  process.exit(0);
}

const { URL: SpecURL } = require("whatwg-url");
const NodeURL = globalThis.URL;

function spec(input, base) {
  try {
    return { href: base === null ? new SpecURL(input).href : new SpecURL(input, base).href };
  } catch (e) {
    if (e instanceof TypeError) {
      return { failure: true };
    }
    throw e;
  }
}

function builtin(input, base) {
  try {
    return base === null ? new NodeURL(input).href : new NodeURL(input, base).href;
  } catch (e) {
    return null;
  }
}

function answer(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { error: "bad JSON: " + e.message };
  }
  if (req === null || typeof req !== "object" || typeof req.in !== "string" ||
      !(req.base === null || req.base === undefined || typeof req.base === "string")) {
    return { error: "want {\"in\": string, \"base\": string|null}" };
  }
  const base = typeof req.base === "string" ? req.base : null;
  const out = spec(req.in, base);
  out.node = builtin(req.in, base);
  return out;
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let batch = [];

function flush() {
  if (batch.length > 0) {
    process.stdout.write(batch.join(""));
    batch = [];
  }
}

rl.on("line", line => {
  batch.push(JSON.stringify(answer(line)) + "\n");
  if (batch.length >= 512) {
    flush();
  }
});
rl.on("close", flush);
