import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

/**
 * Writes a file so that a crash at any moment leaves either the old content or the new, never a torn
 * or empty file: write a temporary file beside it, fsync it, rename it over the old one, fsync the
 * directory (so the rename itself survives a power cut).
 */
export function writeFileAtomically(path: string, directory: string, text: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const file = openSync(temporary, "w", 0o600);
  try {
    writeSync(file, text);
    fsyncSync(file);
  } catch (error) {
    closeSync(file);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(file);
  renameSync(temporary, path);
  const folder = openSync(directory, "r");
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}

/** Session transcripts as JSON files, one per session, each replaced atomically after every turn. */
export class TranscriptWriter {
  constructor(readonly directory: string) {
    mkdirSync(directory, { recursive: true });
    // Temporary files of a process killed mid-write are debris; the renamed files are whole.
    for (const name of readdirSync(directory))
      if (/\.json\.\d+\.[0-9a-f]{8}\.tmp$/.test(name)) rmSync(join(directory, name), { force: true });
  }

  /** Replaces the transcript of session `id`. */
  write(id: string, transcript: unknown): void {
    writeFileAtomically(join(this.directory, `${id}.json`), this.directory, `${JSON.stringify(transcript, null, 2)}\n`);
  }
}
