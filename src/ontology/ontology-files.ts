import { readFileSync } from "node:fs";
import type * as z from "zod";
import { BUNDLED } from "../foundation/package-paths.ts";
import { describeZodIssues } from "./describe-zod-issues.ts";
import { cmasSchema } from "./cmas-schema.ts";
import { complaintBlindQuestionsSchema } from "./complaint-blind-questions-schema.ts";
import { diagnosesSchema } from "./diagnoses-schema.ts";
import { diagnosisSynonymsSchema } from "./diagnosis-synonyms-schema.ts";
import { recordLabelsSchema } from "./record-labels-schema.ts";
import { redFlagsSchema } from "./red-flags-schema.ts";
import { testNamesSchema } from "./test-names-schema.ts";
import { historyPlanSchema } from "./history-plan-schema.ts";
import { layTermsSchema } from "./lay-terms-schema.ts";
import { lexiconSchema } from "./lexicon-schema.ts";
import { medicinesSchema } from "./medicines-schema.ts";
import { nlgTemplatesSchema } from "./nlg-templates-schema.ts";
import { osceChecklistSchema } from "./osce-checklist-schema.ts";
import { patientAnswerRulesSchema } from "./patient-answer-rules-schema.ts";
import { visitNoteSchema } from "./visit-note-schema.ts";
import { wordListsSchema } from "./word-lists-schema.ts";
import { validatedCopy, writeValidatedCopies } from "./validated-ontology.ts";

/**
 * The one place the files of `ontology/` are read: each is parsed once, validated with its zod schema
 * (a bad edit fails at load with the file and the path of the problem) and cached. Code never reads
 * an ontology file any other way; `tests/ontology/ontology-files.test.ts` checks that every file of
 * the folder is listed here.
 */

export const ONTOLOGY_DIR = `${BUNDLED.ontology}/`;

/** Every ontology file with its schema. */
export const ONTOLOGY_SCHEMAS = {
  "cmas.json": cmasSchema,
  "complaint-blind-questions.json": complaintBlindQuestionsSchema,
  "diagnoses.json": diagnosesSchema,
  "diagnosis-synonyms.json": diagnosisSynonymsSchema,
  "history-plan.json": historyPlanSchema,
  "lay-terms.json": layTermsSchema,
  "lexicon.json": lexiconSchema,
  "medicines.json": medicinesSchema,
  "nlg-templates.json": nlgTemplatesSchema,
  "osce-checklist.json": osceChecklistSchema,
  "patient-answer-rules.json": patientAnswerRulesSchema,
  "record-labels.json": recordLabelsSchema,
  "red-flags.json": redFlagsSchema,
  "test-names.json": testNamesSchema,
  "visit-note.json": visitNoteSchema,
  "word-lists.json": wordListsSchema,
} as const;

export type OntologyFileName = keyof typeof ONTOLOGY_SCHEMAS;
/** The validated content of an ontology file. */
export type OntologyFile<Name extends OntologyFileName> = z.infer<(typeof ONTOLOGY_SCHEMAS)[Name]>;

const loaded = new Map<OntologyFileName, unknown>();

/** Parses and validates the text of an ontology file (exported for tests of the schemas). */
export function parseOntologyFile<Name extends OntologyFileName>(name: Name, text: string): OntologyFile<Name> {
  const result = ONTOLOGY_SCHEMAS[name].safeParse(JSON.parse(text));
  if (!result.success) throw new Error(`ontology/${name}: ${describeZodIssues(result.error)}`);
  return result.data as OntologyFile<Name>;
}

/**
 * The validated content of `ontology/<name>`, read once: the build's validated copy while the file is
 * unchanged (`validated-ontology.ts`), else validated now.
 */
export function loadOntologyFile<Name extends OntologyFileName>(name: Name): OntologyFile<Name> {
  if (!loaded.has(name)) {
    const text = readFileSync(`${ONTOLOGY_DIR}${name}`, "utf8");
    loaded.set(name, validatedCopy(name, text) ?? parseOntologyFile(name, text));
  }
  return loaded.get(name) as OntologyFile<Name>;
}

/** Validates every ontology file and writes the build's copies (`npm run build`). */
export function writeValidatedOntology(): void {
  writeValidatedCopies(
    (Object.keys(ONTOLOGY_SCHEMAS) as OntologyFileName[]).map((name) => {
      const text = readFileSync(`${ONTOLOGY_DIR}${name}`, "utf8");
      return { name, text, content: parseOntologyFile(name, text) };
    }),
  );
}
