import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT, RUNS_FROM_BUNDLE } from "../foundation/package-paths.ts";

/**
 * The build's copy of the ontology files as their schemas gave them: `npm run build` validates every
 * file of `ontology/` and writes the result to `dist/ontology-validated/`, beside a SHA-256 of each
 * source text (`manifest.json`). The bundled code reads that copy while a file's text is unchanged,
 * instead of validating it again at every start (about 35 ms of `npm run bench`); an edited file has
 * another hash and is validated as before. Only the bundle reads it: code run from the sources (the
 * tests, `npx tsx`) always validates, so a schema changed in `src/` never meets a copy made with the
 * old one.
 */

/** Where the build writes the validated copies and their manifest. */
export const VALIDATED_ONTOLOGY_DIR = join(PACKAGE_ROOT, "dist", "ontology-validated");


/** The SHA-256 of a source text, as the manifest records it. */
function sourceHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

let manifest: Record<string, string> | null | undefined;

function readManifest(): Record<string, string> | null {
  if (manifest === undefined) {
    try {
      manifest = JSON.parse(readFileSync(join(VALIDATED_ONTOLOGY_DIR, "manifest.json"), "utf8")) as Record<
        string,
        string
      >;
    } catch {
      manifest = null;
    }
  }
  return manifest;
}

/** The build's validated copy of a file whose source text is `text`, or undefined (then validate it). */
export function validatedCopy(name: string, text: string): unknown {
  if (!RUNS_FROM_BUNDLE) return undefined;
  const hash = readManifest()?.[name];
  if (hash === undefined || hash !== sourceHash(text)) return undefined;
  try {
    return JSON.parse(readFileSync(join(VALIDATED_ONTOLOGY_DIR, name), "utf8"));
  } catch {
    return undefined;
  }
}

/** Writes the validated copies of some files (name → source text, validated content) and their manifest. */
export function writeValidatedCopies(files: ReadonlyArray<{ name: string; text: string; content: unknown }>): void {
  mkdirSync(VALIDATED_ONTOLOGY_DIR, { recursive: true });
  const hashes: Record<string, string> = {};
  for (const { name, text, content } of files) {
    writeFileSync(join(VALIDATED_ONTOLOGY_DIR, name), JSON.stringify(content));
    hashes[name] = sourceHash(text);
  }
  writeFileSync(join(VALIDATED_ONTOLOGY_DIR, "manifest.json"), `${JSON.stringify(hashes, null, 2)}\n`);
}
