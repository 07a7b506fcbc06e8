import type { ChatBackend } from "../../backends/spec.ts";
import type { CallOptions } from "../../language/module-interfaces.ts";
import { loadPromptTemplate } from "../../modules/prompting/prompt-template.ts";
import type { ConsultCase } from "./consult-case.ts";
import type { ConsultTurn, PatientReply, PatientRole } from "./consult-roles.ts";
import { factMatcher } from "./fact-matcher.ts";
import { renderTranscript } from "./llm-doctor.ts";

/**
 * A patient played by any chat backend, with our prompt `prompts/consult-patient.v1.txt`: it is given
 * the case's facts, numbered, and the consultation so far, and told to answer the doctor's last
 * question in the first person from the facts that answer it, never to reveal anything it was not
 * asked nor to name or hint at the diagnosis (the case's diagnosis is never in its prompt). Its reply
 * starts with `FACTS: 2, 5` (or `FACTS: none`): the facts it revealed. A reply without that line is
 * kept, and the facts it revealed are the ones whose words it says (three quarters of them at least),
 * with the missing line recorded as a format error. Greedy, at most 150 tokens, cached like any other.
 */

export const PATIENT_PROMPT = "consult-patient.v1";

/** The facts line of a patient's reply, e.g. `FACTS: 2, 5`, `**Facts:** none`. */
const FACTS_LINE = /^\s*\**\s*facts\s*\**\s*:\s*\**\s*([^\n]*)$/im;

/** Who the model plays. */
function voiceLine(patientCase: ConsultCase): string {
  const voice = patientCase.voice;
  if (voice.kind === "parent") return `You are the parent of the patient, your ${voice.child}, and answer for them.`;
  if (voice.kind === "relative") return `You are the patient's ${voice.relation}, and answer for them.`;
  return "You are the patient.";
}

/** The facts whose words a reply says: three quarters of their words at least. */
function factsSaid(reply: string, patientCase: ConsultCase): string[] {
  const matcher = factMatcher();
  const said = new Set(matcher.analyse(reply).words);
  return patientCase.facts
    .filter((fact) => {
      const words = matcher.analyse(fact.spoken).words;
      return words.length > 0 && words.filter((word) => said.has(word)).length / words.length >= 0.75;
    })
    .map((fact) => fact.id);
}

/** A patient's reply read: its answer and the facts it names by number (those of the case only). */
export function readPatientReply(reply: string, patientCase: ConsultCase): PatientReply {
  const line = FACTS_LINE.exec(reply);
  if (!line) {
    const text = reply.trim();
    return {
      text,
      revealed: factsSaid(text, patientCase),
      format_error: "no FACTS: line; the facts revealed are those whose words the reply says",
    };
  }
  const text = reply.replace(FACTS_LINE, "").trim();
  const numbers = line[1]!.match(/\d+/g) ?? [];
  // The prompt numbers the facts 1 to n in the case's order.
  const revealed = [...new Set(numbers.map(Number))]
    .filter((number) => number >= 1 && number <= patientCase.facts.length)
    .sort((a, b) => a - b)
    .map((number) => patientCase.facts[number - 1]!.id);
  return { text: text === "" ? "I'm not sure." : text, revealed };
}

/** A patient played by a chat backend. */
export function llmPatient(backend: ChatBackend): PatientRole {
  const template = loadPromptTemplate(PATIENT_PROMPT);
  return {
    id: backend.id,
    start: (patientCase) => ({
      answer: async (question: string, turns: readonly ConsultTurn[], options: CallOptions = {}) => {
        const facts = patientCase.facts.map((fact, index) => `${index + 1}. ${fact.text}`).join("\n");
        const user = template.user({
          voice: voiceLine(patientCase),
          facts,
          transcript: renderTranscript(turns.slice(0, -1), "(nothing yet)"),
          question,
        });
        const result = await backend.generate(
          [
            { role: "system", content: template.system },
            { role: "user", content: user },
          ],
          { temperature: 0, maxTokens: 150, ...(options.signal ? { signal: options.signal } : {}) },
        );
        const reply = readPatientReply(result.text, patientCase);
        return { ...reply, info: { latencyMs: result.latencyMs, usage: result.usage, cached: result.cached } };
      },
    }),
  };
}
