import * as z from "zod";
import type { DialogueState } from "../cmas/schemas.ts";
import { caseFacts } from "./case-facts.ts";

/**
 * A case's lay script: how this patient — or the relative who speaks for them — says each fact of the
 * case's profile, written by hand in a real speaker's words (hedges, typos, vague times), never in the
 * engine's lexicon, so that a self-played history tests the doctor's reading of how people speak. The
 * scripted patient (`scripted-patient.ts`) says only these lines.
 */

/** Who speaks: the patient, or the relative who brings them (a parent for a child, a daughter for an elderly mother). */
export const SPEAKERS = ["patient", "mother", "father", "daughter", "son", "wife", "husband", "partner"] as const;

const saidSchema = z.string().trim().min(1);

/**
 * A fact id or a question in the same form (`slot:value`, `slot:value#attribute`, a social slot's name).
 * Example: "family_history:heart diseases".
 */
const FACT_ID = /^[a-z_]+(?::[^#]+(?:#[a-z_]+)?)?$/;

/**
 * A line with what else it does: the facts it volunteers besides its own (a line about the pain that also
 * says where it is), and the broader questions it answers though they name none of the case's facts
 * ("any heart problems in the family?", `family_history:heart diseases`, is answered by the line about a
 * father's heart attack).
 */
const lineSchema = z.union([
  saidSchema,
  z
    .strictObject({
      says: saidSchema,
      reveals: z.array(z.string()).min(1).optional(),
      answers: z.array(z.string().regex(FACT_ID)).min(1).optional(),
    })
    .refine(
      (line) => line.reveals !== undefined || line.answers !== undefined,
      "a line given as an object reveals or answers something",
    ),
]);

/**
 * What the speaker says when asked their ideas, concerns and expectations (ICE): what they think is
 * going on (a lay or mistaken idea is fine: "I reckon it's a pulled muscle"), what worries them, and what
 * they hope the visit gives them. Each optional; none of them is a fact of the profile, so none may tell
 * a finding the profile lacks or name a diagnosis the case rules out.
 */
const iceLinesSchema = z.strictObject({
  ideas: saidSchema.optional(),
  concerns: saidSchema.optional(),
  expectations: saidSchema.optional(),
});

export const layScriptSchema = z.strictObject({
  speaker: z.enum(SPEAKERS),
  /** What the speaker says to "What brings you in?", and the facts it tells. */
  opening: z.strictObject({ says: saidSchema, reveals: z.array(z.string()).min(1) }),
  /** A line for every fact of the profile, keyed by fact id (`case-facts.ts`). */
  lines: z.record(z.string(), lineSchema),
  /** The speaker's own ways of saying they are not sure, said in turn (default: three plain ones). */
  unsure: z.array(saidSchema).min(1).optional(),
  /** The speaker's answers to the ideas, concerns and expectations questions (without one: "not sure"). */
  ice: iceLinesSchema.optional(),
});

/** A case's lay script, as its file gives it. */
export type LayScript = z.infer<typeof layScriptSchema>;

/** One line of a script, what it volunteers and answers made explicit. */
export interface ScriptLine {
  readonly says: string;
  readonly reveals: readonly string[];
  readonly answers: readonly string[];
}

/** The line a script has for a fact, or undefined. */
export function scriptLine(script: LayScript, fact: string): ScriptLine | undefined {
  const line = script.lines[fact];
  if (line === undefined) return undefined;
  return typeof line === "string"
    ? { says: line, reveals: [], answers: [] }
    : { says: line.says, reveals: line.reveals ?? [], answers: line.answers ?? [] };
}

/** The broader questions a script's lines answer: `slot:value` → the facts whose lines answer it. */
export function answeredQuestions(script: LayScript): Map<string, string[]> {
  const answered = new Map<string, string[]>();
  for (const fact of Object.keys(script.lines))
    for (const question of scriptLine(script, fact)!.answers)
      answered.set(question, [...(answered.get(question) ?? []), fact]);
  return answered;
}

/** A problem with a script, at a path inside it. */
export interface ScriptIssue {
  readonly path: Array<string | number>;
  readonly message: string;
}

/** What is wrong with each line: a fact it is for or reveals that the profile lacks, or a broader question that is a fact. */
function lineIssues(script: LayScript, known: ReadonlySet<string>): ScriptIssue[] {
  const issues: ScriptIssue[] = [];
  for (const id of Object.keys(script.lines)) {
    if (!known.has(id)) issues.push({ path: ["script", "lines", id], message: "no such fact in the profile" });
    const line = scriptLine(script, id)!;
    for (const [index, revealed] of line.reveals.entries())
      if (!known.has(revealed))
        issues.push({
          path: ["script", "lines", id, "reveals", index],
          message: `no fact '${revealed}' in the profile`,
        });
    for (const [index, question] of line.answers.entries())
      if (known.has(question))
        issues.push({
          path: ["script", "lines", id, "answers", index],
          message: `'${question}' is a fact of the profile, answered by its own line`,
        });
  }
  return issues;
}

/**
 * What is wrong with a script for a profile: a fact without a line, a line for no fact of the profile, a
 * revealed fact the profile does not have, a broader question that is itself a fact, and two entries
 * under one fact id.
 */
export function checkScript(script: LayScript, profile: DialogueState): ScriptIssue[] {
  const ids = caseFacts(profile).map((fact) => fact.id);
  const known = new Set(ids);
  const issues: ScriptIssue[] = [];
  const duplicates = ids.filter((id, index) => ids.indexOf(id) !== index);
  for (const id of new Set(duplicates))
    issues.push({
      path: ["profile"],
      message: `two entries are the same fact '${id}': a script cannot tell them apart`,
    });
  for (const id of known)
    if (script.lines[id] === undefined)
      issues.push({ path: ["script", "lines"], message: `no line for the fact '${id}'` });
  issues.push(...lineIssues(script, known));
  for (const [index, revealed] of script.opening.reveals.entries())
    if (!known.has(revealed))
      issues.push({ path: ["script", "opening", "reveals", index], message: `no fact '${revealed}' in the profile` });
  return issues;
}
