import { caseFacts } from "../case-facts.ts";
import type { SelfPlayCase } from "../case-library.ts";
import { scriptLine } from "../lay-script.ts";
import { checklistCaseOf } from "../checklist-case.ts";
import type { CaseFact, ConsultCase } from "./consult-case.ts";

/**
 * Our library's cases as consultation cases: the doctor opens (the lay script's opening answers "what
 * brings you in?"), the facts are the case profile's (`case-facts.ts`), each said as its lay-script line
 * — the words the case's speaker uses, never our lexicon's — and the consultation ends with a diagnosis,
 * judged against the diagnosis the case states by hand under any of its accepted names, or, where the
 * case says none is supportable from a history alone, right only with none. The scripted patient
 * (`scripted-patient.ts`) speaks for it; the OSCE checklist reads it as self-play does.
 */

/** A library case as a consultation case. */
export function libraryConsultCase(entry: SelfPlayCase): ConsultCase {
  const script = entry.script;
  if (!script) throw new Error(`library case ${entry.id} has no lay script`);
  const facts: CaseFact[] = caseFacts(entry.profile).map((fact) => {
    const said = scriptLine(script, fact.id)?.says ?? fact.id;
    return { id: fact.id, text: said, spoken: said };
  });
  return {
    id: entry.id,
    source: "library",
    briefing: null,
    opening: null,
    facts,
    measurements: [],
    ending: { kind: "diagnosis", answer: entry.expected.diagnosis, accepted: entry.expected.alsoAccepted },
    profile: checklistCaseOf(entry),
    voice: script.speaker === "patient" ? { kind: "patient" } : { kind: "relative", relation: script.speaker },
    scripted: { id: entry.id, title: entry.title, profile: entry.profile, script },
  };
}
