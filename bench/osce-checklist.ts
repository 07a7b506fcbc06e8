/**
 * The OSCE history-taking checklist measured from outside (`src/clinical/osce-checklist.ts`):
 *
 * - per body system, the coverage of a competent complaint-focused history against that of a
 *   complaint-blind list of generic questions (both written by hand, `test-support/osce-histories.ts`),
 *   with the repeats and off-topic questions of each;
 * - precision and recall of the rules on hand-labelled questions phrased as LLM doctors and
 *   clinicians ask them (`test-support/osce-labelled-questions.ts`): the development set, and the
 *   held-out set never used to change a rule (associated symptoms left out unless labelled: whether a
 *   question asks them depends on the case);
 * - how long scoring one 40-turn consultation takes (20 doctor questions, 20 patient answers; the
 *   median wall time and the mean CPU time over `--rounds` rounds of every focused history cut to 40
 *   turns, after a warm-up round), each scored by a scorer of its own, so that no doctor turn is
 *   remembered from an earlier scoring (a run's scorer reads each text once). On a busy machine the
 *   wall time is provisional.
 *
 *   npx tsx bench/osce-checklist.ts [--rounds 200] [--json]
 */
import { scriptArgs } from "./script-args.ts";
import { osceChecklistScorer, scoreOsceChecklist, type ChecklistCase } from "../src/clinical/osce-checklist.ts";
import { asConsultation, COMPLAINT_BLIND_QUESTIONS, FOCUSED_HISTORIES } from "../test-support/osce-histories.ts";
import {
  DEVELOPMENT_QUESTIONS,
  HELD_OUT_QUESTIONS,
  type LabelledQuestion,
} from "../test-support/osce-labelled-questions.ts";

const { values } = scriptArgs({
  options: { rounds: { type: "string", default: "200" }, json: { type: "boolean", default: false } },
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`--rounds must be a positive whole number, not '${values.rounds}'`);
  process.exit(2);
}

/** One system's focused history against the complaint-blind list. */
function honesty(history: (typeof FOCUSED_HISTORIES)[number]) {
  const focused = scoreOsceChecklist(asConsultation(history.questions), history.patient);
  const blind = scoreOsceChecklist(asConsultation(COMPLAINT_BLIND_QUESTIONS), history.patient);
  const summary = (result: typeof focused) => ({
    coverage: result.coverage,
    applicable: result.items.filter((item) => item.applicable).length,
    repeatedQuestions: result.repeatedQuestions,
    offTopicBeforeComplaintDone: result.offTopicBeforeComplaintDone,
  });
  return { system: history.system, focused: summary(focused), blind: summary(blind) };
}

// A case on which no item depends on the complaint but associated symptoms, which is left out.
const NEUTRAL_CASE: ChecklistCase = { complaint: "unwell", pain: true, age: 30, sex: "female", system: "general" };

/** Precision and recall of the items the rules find in each question against its labels. */
function agreement(questions: readonly LabelledQuestion[]) {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  for (const { question, items } of questions) {
    const gold = new Set(items);
    const found = scoreOsceChecklist([{ speaker: "doctor", text: question }], NEUTRAL_CASE)
      .items.filter((item) => item.covered && (item.id !== "associated_symptoms" || gold.has(item.id)))
      .map((item) => item.id);
    const hits = found.filter((id) => gold.has(id)).length;
    truePositives += hits;
    falsePositives += found.length - hits;
    falseNegatives += gold.size - hits;
  }
  return {
    questions: questions.length,
    truePositives,
    falsePositives,
    falseNegatives,
    precision: truePositives / (truePositives + falsePositives),
    recall: truePositives / (truePositives + falseNegatives),
  };
}

/** Milliseconds to score one 40-turn consultation: the median wall time, and the mean CPU time. */
function scoringTime(): { consultations: number; medianMs: number; meanCpuMs: number } {
  const consultations = FOCUSED_HISTORIES.map((history) => ({
    turns: asConsultation(history.questions.slice(0, 20)),
    patient: history.patient,
  }));
  for (const { turns, patient } of consultations) scoreOsceChecklist(turns, patient);
  const times: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let round = 0; round < rounds; round += 1) {
    for (const { turns, patient } of consultations) {
      const score = osceChecklistScorer();
      const started = performance.now();
      score(turns, patient);
      times.push(performance.now() - started);
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  times.sort((a, b) => a - b);
  const meanCpuMs = (cpu.user + cpu.system) / 1000 / times.length;
  return { consultations: times.length, medianMs: times[Math.floor(times.length / 2)]!, meanCpuMs };
}

const report = {
  honesty: FOCUSED_HISTORIES.map(honesty),
  development: agreement(DEVELOPMENT_QUESTIONS),
  heldOut: agreement(HELD_OUT_QUESTIONS),
  timing: scoringTime(),
};

if (values.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const pct = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;
  console.log("system            focused  blind    (applicable items; focused repeats/off-topic; blind off-topic)");
  for (const { system, focused, blind } of report.honesty)
    console.log(
      `${system.padEnd(17)} ${pct(focused.coverage).padStart(7)}  ${pct(blind.coverage).padStart(7)}  (${focused.applicable}; ${focused.repeatedQuestions}/${focused.offTopicBeforeComplaintDone}; ${blind.offTopicBeforeComplaintDone})`,
    );
  for (const [name, set] of [
    ["development", report.development],
    ["held out", report.heldOut],
  ] as const)
    console.log(
      `${name}: ${set.questions} questions, precision ${pct(set.precision)}, recall ${pct(set.recall)} (${set.truePositives} found, ${set.falsePositives} wrong, ${set.falseNegatives} missed)`,
    );
  const { medianMs, meanCpuMs, consultations } = report.timing;
  console.log(
    `scoring a 40-turn consultation: median ${medianMs.toFixed(3)} ms wall, mean ${meanCpuMs.toFixed(3)} ms CPU (${consultations} scored)`,
  );
}
