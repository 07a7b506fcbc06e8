import type { DoctorStatements, ExaminationFindings, PlannedProblem } from "../clinical/visit-note.ts";
import { loadOntologyFile } from "../ontology/ontology-files.ts";
import { asSentence, spokenStatements } from "./spoken-text.ts";
import type { VisitTurn } from "./visit-transcript.ts";

/**
 * What the doctor stated in a recorded visit, selected and ordered by rules over their words: the
 * examination findings (from the point the doctor starts examining, by body system), the results they
 * read out, and — from the point they give their assessment or plan — each problem with the doctor's
 * reasoning, the tests ordered, the treatment and the advice. Every line is a statement the doctor
 * made, cleaned of the talk around it (`spoken-text.ts`), never a sentence of ours.
 *
 * Transcripts made by speech recognition sometimes give the doctor's words to the patient; a
 * patient-labelled statement is taken as the doctor's when it can only be the doctor's (an
 * examination finding, "my assessment", "I'm going to order…").
 */

/** One cleaned statement of the visit, in order, with whose it is. */
interface Statement {
  readonly text: string;
  readonly doctor: boolean;
  /** Index of its turn. */
  readonly turn: number;
  /** Said while a test was on screen ("hey dragon, show me the x-ray. this shows…"): a result read out. */
  readonly onScreen: boolean;
}

/**
 * Words only the doctor says: an examination, the assessment, an order. Example: "on your knee exam
 * there is some edema", "so let's talk about my assessment and plan", "i'm going to order an mri".
 */
const DOCTOR_VOICE =
  /\b(?:on (?:your |the |his |her )?(?:[a-z]+ )?exam(?:ination)?|physical exam|my (?:assessment|impression)|assessment and plan|i(?:'m| am) going to (?:order|prescribe|refer|examine)|i (?:do )?(?:not )?appreciate|(?:your|the) (?:x-ray|mri|ct scan|labs?|blood work) (?:shows?|showed|revealed|came back))\b/;

/**
 * The doctor starts examining. Example: "i'm going to do a quick physical exam", "on your heart exam",
 * "let me take a listen to your lungs", "looking at your vital signs".
 */
const EXAM_OPENING =
  /\b(?:physical exam(?:ination)?|on exam(?:ination)?|examine (?:you|your)|(?:your|the) vital signs|take a (?:quick )?(?:look|listen)|listen to your (?:heart|lungs|chest)|on (?:your |the |his |her )?[a-z]+(?: [a-z]+)? exam(?:ination)?)\b/;

/**
 * The doctor turns to the assessment or plan. Example: "let's talk about my assessment and plan",
 * "for your first problem", "my impression is", "the diagnosis".
 */
const PLAN_OPENING =
  /\b(?:assessment|impression|my plan|the plan|plan for you|(?:first|second|third|next|last|final|other) (?:problem|issue)|diagnos[ie]s|what (?:does|do) (?:all )?(?:of )?(?:that|this|these|those) (?:mean|findings mean))\b/;

/** A statement that asks, even unpunctuated. Example: "do you have normal sensation in your fingers". */
const ASKS =
  /^(?:what about|how about|do you|does (?:it|that|this)|can you|is there|are you|have you|did you|any other)\b/;

/**
 * A test or its result named. Example: "your x-ray", "the lipid panel", "hemoglobin a1c", "the mri".
 */
const TEST_NAME =
  /\b(?:x-rays?|xrays?|mri|ct(?: scan)?|cat scan|ultrasound|echocardiogram|echo|ekg|ecg|electrocardiogram|labs?|lab work|blood work|bloodwork|blood tests?|a1c|hemoglobin|lipid panel|cholesterol|creatinine|kidney function|white blood cell|urinalysis|urine|culture|biopsy|imaging|scan|results?|stress test|mammogram|colonoscopy|titer|panel|swab|(?:covid|strep|flu|pregnancy|rapid) test|tests?)\b/;

/** What a result statement reports. Example: "shows good bony alignment", "came back normal", "was elevated". */
const RESULT_VERB =
  /\b(?:shows?|showed|showing|revealed?|reveals|demonstrat\w+|came back|unremarkable|within normal limits|(?:was|were|is|are|looks?|looked|seemed?|seems) (?:\S+ ){0,3}?(?:normal|abnormal|elevated|negative|positive|high|low|fine|good|okay|stable|clear|up|down|\d+\S*)|no (?:evidence|fractures?|signs?|acute)|fractures?|alignment)\b/;

/**
 * What a statement following a result read out says of it. Example: "this shows good bony alignment",
 * "it is up slightly", "they look completely normal".
 */
const RESULT_GOES_ON =
  /\b(?:shows?|showed|revealed?|demonstrated?|came back|was|were|is|are|looks?|looked|normal|abnormal|elevated|positive|negative|high|low)\b/;

/** A test still to come, not a result. Example: "i want to order an x-ray", "we'll repeat the labs". */
const TEST_TO_COME =
  /\b(?:order|schedule|repeat|send you|prescribe|recommend|we(?:'ll| will)|going to (?:get|send|check)|want to (?:get|check)|let's (?:get|check)|i'd like to get)\b/;

/**
 * What the doctor finds on examining. Example: "there is some edema", "you have tenderness to
 * palpation", "your lungs are clear", "i do appreciate a murmur", "your blood pressure is a little high".
 */
const EXAM_FINDING =
  /\b(?:appreciate|tender(?:ness)?|palpation|swelling|swollen|edema|erythema|effusion|range of motion|strength|reflexes?|sensation|intact|normal|clear|murmurs?|rhythm|pulses?|bruising|lesions?|rash|wound|laceration|soft|there is|there's|there are|you have|you do have|look(?:s|ed)? (?:good|fine|normal|okay|great)|sounds? (?:good|fine|normal|clear|okay)|feels? (?:good|fine|normal|okay)|blood pressure|heart rate|temperature|oxygen|vital signs|pain)\b/;

/**
 * The doctor says what they are about to do, or instructs the patient during the examination.
 * Example: "i'm going to listen to your heart", "let me take a look", "take a deep breath", "does this hurt".
 */
const EXAM_PROCEDURE =
  /\b(?:going to|let me|let's|i'll|i will|want to|take a (?:deep )?breath|breathe|lie (?:back|down)|lay back|sit up|push|pull|squeeze|let you know what i find|does (?:this|that|it) hurt)\b/;

/**
 * Talk that is no part of a note: greetings, thanks, the doctor checking the patient follows.
 * Example: "any questions?", "does that sound good", "nice to meet you", "take care".
 */
const TALK =
  /^(?:any (?:other )?questions|do you have any|does that (?:sound|make sense)|sounds good|how are you|nice to|good to see|take care|thank you|thanks|you're welcome|have a (?:good|great|nice)|finalize|bye|see you|all good|so what does (?:that|all of that) mean)/;

/**
 * The doctor announces the assessment or plan without giving any of it. Example: "let's just talk a
 * little bit about my assessment and plan for you", "i want to go over my plan".
 */
const ANNOUNCES_PLAN =
  /^(?:let's|let me|i (?:just )?want to|i'd like to|i'm going to)\s+(?:just\s+)?(?:talk|go over|discuss|tell you)\b[^,]*\b(?:assessment|plan|what i (?:found|think))\b[^,]*$/;

/** The fewest words a statement of the note has ("Sure." and "Good." are talk). */
const FEWEST_WORDS = 3;

/**
 * The doctor says what they intend, outside the examination: a plan said early. Example: "what i would
 * recommend is a cortisone injection", "i'm going to prescribe", "we'll order an mri".
 */
const PLAN_INTENT =
  /\b(?:i (?:would |'d )?recommend|i(?:'m| am) going to (?:prescribe|order|refer|start|give you)|we(?:'ll| will) (?:order|prescribe|refer|start|get you)|i want to (?:prescribe|order|refer|start))\b/;

/**
 * The doctor opens a problem and names it. Example: "for your first problem, your back pain, i think…"
 * → "back pain"; "in terms of your depression, …" → "depression"; "from a diabetes standpoint" → "diabetes".
 */
const PROBLEM_OPENING =
  /^(?:(?:and|then|so|now|next)\s+)*(?:for|regarding|in terms of|as far as|with regards? to|as for|moving on to|from an?)\s+(?:your\s+|the\s+|his\s+|her\s+)?(?:(?:first|second|third|fourth|fifth|next|last|final|other)\s+(?:problem|issue|concern)\s*(?:of|,|is)?\s*(?:for\s+|of\s+)?(?:your\s+|the\s+|his\s+|her\s+)?)?([a-z0-9' /-]+?)(?:\s+(?:standpoint|goes|wise))?(?:\s*[,.]|$|(?=\s(?:i|we|it|you|let's|that|this|there|what|which|is|are|we're|i'm|i'd)\b))/;

/** Words that open a problem without naming one. Example: "for now", "for that", "for the most part". */
const NOT_A_PROBLEM =
  /^(?:now|that|this|it|them|those|these|the most part|a while|right now|today|me|you|example|instance|sure)$|\b(?:assessment|plan|problem|issue|questions?)\b/;

/**
 * A statement made to the patient rather than dictated about them. Example: "we're going to spend some
 * time together" (to the patient) against "the biopsy revealed a melanoma" (dictated).
 */
const SPEAKS_TO_PATIENT = /\b(?:you|your|you're|you'll|you've|we're|let's)\b/;

/** The most words a problem's name has ("reflux and your nausea and vomiting"). */
const PROBLEM_NAME_WORDS = 7;

/**
 * The doctor's impression: a diagnosis, its cause, how it is going. Example: "i think this is an acute
 * exacerbation of your arthritis", "this is consistent with a lisfranc fracture", "it's well controlled".
 */
const REASONING =
  /\b(?:i think|i believe|consistent with|likely|probably|diagnos\w*|due to|because|sounds like|looks like|means|this is an? |that is an? |you have|you've got|caused by|related to|secondary to|concern\w*|suspect|impression|rule out|stable|controlled|improv\w*|worse|better|normal)\b/;

/** A test ordered. Example: "i want to order an mri of your left shoulder", "order a thyroid panel". */
const TESTING =
  /\b(?:order(?:ing)?|draw|check(?:ing)?|obtain|get (?:an?|some|the)|schedule|repeat|send (?:you|it|off))\b.*\b(?:x-rays?|mri|ct|cat scan|ultrasound|echocardiogram|echo|ekg|ecg|labs?|blood work|bloodwork|panel|a1c|test(?:ing|s)?|biopsy|imaging|scan|culture|urinalysis|mammogram|colonoscopy|levels?|swab)\b/;

/**
 * A treatment: a medicine, a procedure, a referral. Example: "prescribe some ultram 50 milligrams",
 * "continue you on the synthroid", "refer you to physical therapy".
 */
const TREATMENT =
  /\b(?:prescri\w+|start (?:you|him|her)|put (?:you|him|her) on|continue|increase|decrease|reduce|stop|discontinue|refill|milligrams|mg|dose|tablets?|pills?|injections?|shot|surgery|procedure|operation|physical therapy|therapy|refer(?:ral)?|brace|splint|boot|sling|cream|ointment|inhaler|antibiotics?|medications?|medicine)\b/;

/**
 * Advice to the patient. Example: "i want you to push fluids", "make sure you rest", "follow up in
 * two weeks", "avoid salty foods".
 */
const COUNSELING =
  /\b(?:i want you to|i'd like you to|you (?:should|need to|can|could)|make sure|recommend|advise|avoid|diet|exercise|ice|rest|elevate|hydrat\w*|fluids|follow[- ]?up|come back|see you|call (?:me|us|the office)|let me know|monitor|watch|keep (?:an eye|track))\b/;

/** An answer that agrees. Example: "okay", "sounds good", "yes , that sounds great", "you got it". */
const AGREES =
  /^(?:okay|ok|yes|yeah|yep|sure|sounds good|that sounds (?:good|great|fine)|alright|all right|perfect|great|you got it|that's fine|will do|i will|definitely|absolutely)\b/;

/** An answer that refuses. Example: "i don't want to take that", "no thanks", "i'd rather not". */
const REFUSES = /\b(?:i don't want|i do not want|i won't|no thanks|i'd rather not|i refuse)\b/;

/** Where a dictation command starts. Example: "… okay ? hey , dragon , show me the labs ." */
const COMMAND_START = /(?=\bhey\s*,?\s*dragon\b)/;

/** A command that puts a test on screen. Example: "hey , dragon , show me the right knee x-ray". */
const SHOWS_TEST = new RegExp(
  `^hey\\s*,?\\s*dragon\\s*[,.?]?\\s*(?:show|pull up|bring up|open)\\b[^.?!]*${TEST_NAME.source}`,
);

/** Every statement of the visit, in order, with whose it is and whether a test was on screen. */
function statementsOf(turns: readonly VisitTurn[]): Statement[] {
  return turns.flatMap((turn, index) =>
    turn.text
      .toLowerCase()
      .split(COMMAND_START)
      .flatMap((segment) =>
        spokenStatements(segment).map((text) => ({
          text,
          doctor: turn.speaker === "doctor" || DOCTOR_VOICE.test(text),
          turn: index,
          onScreen: SHOWS_TEST.test(segment.trim()),
        })),
      ),
  );
}

/** Whether the patient said yes to the plan: an answer after it agrees, and none refuses. */
function agreesToPlan(turns: readonly VisitTurn[], from: number): boolean {
  const answers = turns
    .slice(from)
    .filter((turn) => turn.speaker === "patient" && !DOCTOR_VOICE.test(turn.text))
    .map((turn) => turn.text.toLowerCase().trim());
  return answers.some((answer) => AGREES.test(answer)) && !answers.some((answer) => REFUSES.test(answer));
}

/** Whether a statement reports a test's result (not one still to come). */
function isResult(text: string): boolean {
  return TEST_NAME.test(text) && RESULT_VERB.test(text) && !TEST_TO_COME.test(text) && !/\bexam/.test(text);
}

/** Whether a doctor's statement belongs in a note at all (not talk, not a question to the patient). */
function isNoteworthy(statement: Statement): boolean {
  const { text } = statement;
  return (
    statement.doctor &&
    !text.endsWith("?") &&
    !ASKS.test(text) &&
    !TALK.test(text) &&
    !ANNOUNCES_PLAN.test(text) &&
    text.split(/\s+/).length >= FEWEST_WORDS
  );
}

/** Where the examination starts and where the assessment and plan start, as statement indexes. */
function phases(statements: readonly Statement[]): { exam: number; plan: number } {
  const exam = statements.findIndex((statement) => statement.doctor && EXAM_OPENING.test(statement.text));
  const from = Math.max(exam, 0);
  const opening = statements.findIndex(
    (statement, index) => index > from && statement.doctor && PLAN_OPENING.test(statement.text),
  );
  return { exam, plan: opening >= 0 ? opening : statements.length };
}

/** The examination's findings grouped by body system, systems in the order first examined. */
/**
 * The words that put a finding to the patient rather than state it. Example: "on your knee exam, you
 * do have some pain to palpation of your right knee" → "on knee exam, some pain to palpation of right knee".
 */
const TO_THE_PATIENT = /\b(?:i (?:do )?appreciate|you (?:do )?have|you've got)\s+|\byour\s+/g;

/** A finding as a note states it: the doctor's words without those that address the patient. */
function asFinding(statement: string): string {
  return statement.replace(TO_THE_PATIENT, "").replace(/\s+/g, " ").trim();
}

function examinationOf(findings: readonly string[]): ExaminationFindings[] {
  const { examination, examination_default_system: fallback } = loadOntologyFile("visit-note.json");
  const systems = examination.map((system) => ({
    system: system.system,
    cues: system.cues.map((cue) => new RegExp(cue, "i")),
  }));
  const grouped = new Map<string, string[]>();
  for (const finding of findings.flatMap((statement) => statement.split(NEXT_EXAM_PART))) {
    const system = firstNamedSystem(systems, finding) ?? fallback;
    grouped.set(system, [...(grouped.get(system) ?? []), asSentence(asFinding(finding.replace(/[,\s]+$/, "")))]);
  }
  return [...grouped].map(([system, said]) => ({ system, findings: said }));
}

/**
 * Where a statement of findings goes on to another part of the examination. Example: "on heart exam,
 * a 3/6 murmur, on lung exam, some fine crackles" → "on heart exam, a 3/6 murmur" | "on lung exam, …".
 */
const NEXT_EXAM_PART =
  /(?<=\S)\s*[,.;]?\s+(?:and\s+)?(?=on (?:your |the |his |her )?[a-z]+(?: [a-z]+)? exam(?:ination)?\b)/;

/**
 * The body system a finding is about: the one whose cue comes first in its words ("on lung exam, some
 * crackles… and edema" is respiratory though edema is a cardiovascular cue too); undefined when none.
 */
function firstNamedSystem(
  systems: ReadonlyArray<{ system: string; cues: readonly RegExp[] }>,
  finding: string,
): string | undefined {
  let best: { system: string; at: number } | undefined;
  for (const { system, cues } of systems)
    for (const cue of cues) {
      const at = cue.exec(finding)?.index;
      if (at !== undefined && (!best || at < best.at)) best = { system, at };
    }
  return best?.system;
}

type MutableProblem = { problem: string | null } & { [Part in Exclude<keyof PlannedProblem, "problem">]: string[] };

const emptyProblem = (problem: string | null): MutableProblem => ({
  problem,
  reasoning: [],
  testing: [],
  treatment: [],
  counseling: [],
});

/** The problem a statement opens, by name, or null. */
function problemOpened(text: string): string | null {
  const name = PROBLEM_OPENING.exec(text)?.[1]
    ?.replace(/\b(?:your|his|her|the)\s+/g, "")
    .trim();
  if (!name || NOT_A_PROBLEM.test(name) || name.split(/\s+/).length > PROBLEM_NAME_WORDS) return null;
  return name.replace(/^\w/, (first) => first.toUpperCase());
}

/**
 * What a statement of the plan says: a test, a treatment, advice, or the doctor's reasoning; null for
 * talk to the patient that says none of these ("we're going to spend some time together").
 */
function planPart(text: string, opensProblem: boolean): Exclude<keyof PlannedProblem, "problem"> | null {
  if (TESTING.test(text)) return "testing";
  if (TREATMENT.test(text)) return "treatment";
  if (COUNSELING.test(text)) return "counseling";
  return REASONING.test(text) || opensProblem || !SPEAKS_TO_PATIENT.test(text) ? "reasoning" : null;
}

/** The assessment and plan: statements split into problems where the doctor opens one, each statement by what it says. */
function assessmentAndPlanOf(statements: readonly string[]): PlannedProblem[] {
  const problems: MutableProblem[] = [emptyProblem(null)];
  for (const text of statements) {
    const opened = problemOpened(text);
    if (opened) problems.push(emptyProblem(opened));
    // The problem's name is its heading: the words that opened it are not said again.
    const said = opened ? text.replace(PROBLEM_OPENING, "").trim() : text;
    if (said.split(/\s+/).length < FEWEST_WORDS) continue;
    const part = planPart(said, opened !== null);
    if (part) problems[problems.length - 1]![part].push(asSentence(said));
  }
  return problems.filter(
    (problem) =>
      problem.reasoning.length + problem.testing.length + problem.treatment.length + problem.counseling.length > 0,
  );
}

/** The turn where the history ends: the first of the examination, else of the assessment and plan, else the end. */
export function historyEndTurn(turns: readonly VisitTurn[]): number {
  const statements = statementsOf(turns);
  const { exam, plan } = phases(statements);
  const first = statements[exam >= 0 ? exam : plan];
  return first ? first.turn : turns.length;
}

/** What the doctor stated in a visit: examination, results, assessment and plan, and whether the patient agreed. */
export function readDoctorStatements(turns: readonly VisitTurn[]): DoctorStatements {
  const statements = statementsOf(turns);
  const { exam, plan } = phases(statements);
  const findings: string[] = [];
  const results: string[] = [];
  const early: string[] = [];
  // A result read out goes on in the same turn: "here's your knee x-ray. this shows good alignment."
  let resultsTurn = -1;
  statements.slice(0, plan).forEach((statement, index) => {
    const examining = exam >= 0 && index >= exam;
    if (!isNoteworthy(statement)) return;
    const goesOn =
      (statement.onScreen || statement.turn === resultsTurn) &&
      RESULT_GOES_ON.test(statement.text) &&
      !TEST_TO_COME.test(statement.text) &&
      !EXAM_OPENING.test(statement.text);
    resultsTurn = -1;
    if (isResult(statement.text) || goesOn) {
      results.push(asSentence(asFinding(statement.text)));
      resultsTurn = statement.turn;
    } else if (examining && PLAN_INTENT.test(statement.text)) early.push(statement.text);
    else if (examining && EXAM_FINDING.test(statement.text) && !EXAM_PROCEDURE.test(statement.text))
      findings.push(statement.text);
  });
  const closing = statements.slice(plan);
  const planned = closing.filter(isNoteworthy).map((statement) => statement.text);
  // Results read out after the doctor turned to the plan but before the first problem are results still.
  const firstProblem = planned.findIndex((text) => problemOpened(text) !== null);
  const beforeProblems = firstProblem >= 0 ? planned.slice(0, firstProblem) : [];
  results.push(...beforeProblems.filter(isResult).map((text) => asSentence(asFinding(text))));
  return {
    examination: examinationOf(findings),
    results,
    assessmentAndPlan: assessmentAndPlanOf([
      ...early,
      ...planned.filter((text, index) => index >= firstProblem || !isResult(text)),
    ]),
    patientAgrees: closing.length > 0 && agreesToPlan(turns, closing[0]!.turn),
  };
}
