#!/usr/bin/env bash
# The packed-tarball check: what `npm pack` produces installs into an empty folder, where the CLI,
# the library import and a plug-in written outside the package work as a user would use them.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d "${TMPDIR:-/tmp}/anamnesis-pack-XXXXXX")"
trap 'rm -rf "$work"' EXIT

tarball="$(npm pack --silent --pack-destination "$work" | tail -n 1)"
echo "packed $tarball ($(du -h "$work/$tarball" | cut -f1))"
mkdir "$work/app"
cd "$work/app"
npm init -y >/dev/null
npm install --no-audit --no-fund --prefer-offline "$work/$tarball" >/dev/null

npx anamnesis --version
npx anamnesis bench --suite meditod --out runs/check | tee bench.txt
grep -q "^meditod-nlu " bench.txt
grep -q "^meditod-nlg " bench.txt

node --input-type=module -e '
  const m = await import("anamnesis");
  for (const name of ["scoreNlu", "scorePair", "createBackend", "registerProvider", "DialogueStateTracker", "runBench"]) {
    if (typeof m[name] !== "function") throw new Error(`anamnesis exports no ${name}`);
  }
  const t = await import("anamnesis/testing");
  if (typeof t.checkBackend !== "function") throw new Error("anamnesis/testing exports no checkBackend");
  console.log("library import: ok");'
test -f node_modules/anamnesis/dist/index.d.ts
test -f node_modules/anamnesis/dist/src/testing/index.d.ts

# The example plug-in, copied outside the package as a user's own module would be.
cp -r node_modules/anamnesis/examples/mock-provider ./mock-provider
node mock-provider/check.mjs
npx anamnesis bench --provider-module ./mock-provider/mock-provider.mjs --backend mock:demo --suite meditod-nlu --limit 3 --out runs/mock >/dev/null
echo "packed-tarball check: ok"
