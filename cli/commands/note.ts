import type { Command } from "commander";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { clinicalNote, type NoteInput } from "../../src/clinical/clinical-note.ts";
import { noteToMarkdown } from "../../src/clinical/note-markdown.ts";
import { describeIssues, dialogueStateSchema } from "../../src/cmas/schemas.ts";
import { getDialogue, loadMeditod } from "../../src/data/meditod.ts";
import { noteInputOf } from "../../src/dialogue-manager/note-input.ts";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { printJson } from "../shared/output.ts";
import * as z from "zod";

interface NoteFlags {
  dialogue?: string;
  session?: string;
  data?: string;
  format: string;
  out?: string;
}

/** What a note is written from, and its title. */
interface TitledNoteInput {
  readonly title: string;
  readonly input: NoteInput;
}

/** A MediTOD dialogue: its gold final state; the presenting complaint is what the first patient turn that names a symptom reports. */
function fromDialogue(id: string, dataDir: string | undefined): TitledNoteInput {
  const patientTurns = getDialogue(loadMeditod(dataDir), id).utterances.filter(
    (utterance) => utterance.speaker === "patient",
  );
  const last = patientTurns.at(-1);
  const firstNaming = patientTurns
    .map((turn) => turn.nlu.flatMap((frame) => frame.slots?.positive_symptom ?? []).map((entry) => String(entry.value)))
    .find((values) => values.length > 0);
  return {
    title: `Clinical note — MediTOD dialogue ${id}`,
    input: {
      state: last?.speaker === "patient" ? last.dialog_state : {},
      presenting: [...new Set(firstNaming ?? [])],
      patientWords: patientTurns.map((turn) => turn.text),
    },
  };
}

/**
 * A saved session (the session's view as the chat server writes it): what its note is written from.
 * Sessions saved before a field was added lack it, and their note is written without it.
 */
const savedSessionSchema = z.looseObject({
  id: z.string().optional(),
  history: z.array(z.looseObject({ speaker: z.string(), text: z.string() })).default([]),
  state: dialogueStateSchema,
  presenting: z.array(z.string()).default([]),
  // The red flags the conversation raised, with their evidence (some only the conversation knows: the patient's words).
  redFlags: z
    .array(z.looseObject({ id: z.string(), label: z.string(), urgency: z.string(), evidence: z.array(z.string()) }))
    .default([]),
  informant: z
    .looseObject({
      relation: z.string().nullable(),
      patientAge: z.string().nullable(),
      patientSex: z.enum(["female", "male"]).nullable(),
    })
    .nullable()
    .default(null),
  medicines: z
    .array(z.looseObject({ name: z.string(), dose: z.string().nullable(), frequency: z.string().nullable() }))
    .default([]),
  patientRequests: z.array(z.looseObject({ kind: z.string(), text: z.string() })).default([]),
});

/** A session transcript saved by `anamnesis chat --transcripts DIR`: its note is the one the server writes of it. */
function fromSession(path: string): TitledNoteInput {
  if (!existsSync(path)) throw new AnamnesisError("FILE_NOT_FOUND", `session file not found: ${path}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new AnamnesisError("INVALID_JSON", `session file is not valid JSON: ${path} (${(error as Error).message})`);
  }
  const parsed = savedSessionSchema.safeParse(json);
  if (!parsed.success)
    throw new AnamnesisError("INVALID_DATA", `${path} is not a saved chat session: ${describeIssues(parsed.error, 2)}`);
  return { title: `Clinical note — session ${parsed.data.id ?? path}`, input: noteInputOf(parsed.data) };
}

export function registerNoteCommands(program: Command): void {
  program
    .command("note")
    .description("Write the clinical note of a MediTOD dialogue (its gold final state) or of a saved chat session.")
    .option("--dialogue <id>", "a MediTOD dialogue id (e.g. 115)")
    .option("--data <dir>", "MediTOD directory for --dialogue; default: the bundled public sample")
    .option("--session <file>", "a session transcript saved by `anamnesis chat --transcripts DIR`")
    .option("--format <format>", "markdown or json", "markdown")
    .option("--out <file>", "write to this file instead of stdout")
    .action((flags: NoteFlags) => {
      if ((flags.dialogue === undefined) === (flags.session === undefined))
        throw new AnamnesisError("INVALID_ARGUMENT", "give exactly one of --dialogue <id> or --session <file>");
      if (flags.format !== "markdown" && flags.format !== "json")
        throw new AnamnesisError("INVALID_ARGUMENT", `--format must be markdown or json (got '${flags.format}')`);
      const source =
        flags.dialogue !== undefined ? fromDialogue(flags.dialogue, flags.data) : fromSession(flags.session!);
      const note = clinicalNote(source.input);
      if (flags.out) {
        writeFileSync(
          flags.out,
          flags.format === "json" ? `${JSON.stringify(note, null, 2)}\n` : noteToMarkdown(note, source.title),
        );
        return;
      }
      if (flags.format === "json") printJson(note);
      else process.stdout.write(noteToMarkdown(note, source.title));
    });
}
