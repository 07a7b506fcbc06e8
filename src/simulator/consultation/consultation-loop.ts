import type { DialogueState } from "../../cmas/schemas.ts";
import type { CallOptions } from "../../language/module-interfaces.ts";
import type { ConsultCase } from "./consult-case.ts";
import type {
  ConsultTurn,
  DoctorMove,
  DoctorRole,
  DoctorSession,
  PatientRole,
  PatientSession,
  RoleCallInfo,
  StateTracker,
  StateTracking,
} from "./consult-roles.ts";
import { fieldName, measurementReader, type MeasurementReader } from "./measurement-reader.ts";

/**
 * One consultation: the doctor and the patient (and, for AgentClinic, the measurement reader) take
 * turns until the doctor answers or its limit is reached.
 * - A multiple-choice case (MediQ) gives the doctor a question budget (`maxQuestions`, MediQ's
 *   `--max_questions`, 30 by default there): once spent, the doctor must answer at once — MediQ's
 *   forced final answer — and the case counts as a timeout (MediQ: more choices than questions
 *   allowed).
 * - A diagnosis case (AgentClinic, our library) gives it a number of turns (`maxTurns`, AgentClinic's
 *   `--total_inferences`, 20 by default there), requests for tests included; the last turn tells it to
 *   answer now, and a doctor that answers only then, or never, counts as a timeout.
 * Every turn is recorded: who spoke, what was said, which facts (or findings) it revealed, and after
 * each patient turn the CMAS state (the dialogue manager's for the embedded doctor, the embedded NLU's
 * otherwise). A patient that fails (its backend down after retries) ends the case with the reason.
 */

/** The limits of a consultation, by how it ends. */
export interface ConsultLimits {
  /** Questions before a multiple-choice doctor must answer. */
  readonly maxQuestions: number;
  /** Doctor turns (questions, requests and the answer) of a diagnosis consultation. */
  readonly maxTurns: number;
}

/** MediQ's and AgentClinic's own defaults. */
export const DEFAULT_LIMITS: ConsultLimits = { maxQuestions: 30, maxTurns: 20 };

/** Who takes part, and the limits. */
export interface ConsultationSetup {
  readonly doctor: DoctorRole;
  readonly patient: PatientRole;
  /** Tracks the state for doctors that track none; null records no state for them. */
  readonly tracker: StateTracker | null;
  readonly limits: ConsultLimits;
  readonly reader?: MeasurementReader;
}

/** How a consultation ended. */
export type ConsultEnding = "answered" | "timeout" | "format error" | "patient failed";

/** A consultation's record: how it ended, the answer, the counts and the whole transcript. */
export interface ConsultationRecord {
  /** An option letter, a diagnosis, or null (no answer, or "no diagnosis"). */
  readonly answer: string | null;
  readonly ending: ConsultEnding;
  /** The limit was reached before the doctor answered of its own accord. */
  readonly timeout: boolean;
  readonly questions: number;
  readonly requests: number;
  readonly format_error?: string;
  readonly failure?: string;
  readonly turns: readonly ConsultTurn[];
  readonly cost: {
    readonly latencyMs: number;
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly calls: number;
    readonly cached: number;
  };
}

/** A patient turn whose state is being tracked, and where it stands in the transcript. */
interface TrackedTurn {
  readonly index: number;
  /** The state, or why it could not be tracked; caught at once, so that a failure waits for the record. */
  readonly state: Promise<{ readonly state: DialogueState } | { readonly error: unknown }>;
}

/** What a consultation is doing as it goes. */
class Run {
  readonly turns: ConsultTurn[] = [];
  questions = 0;
  requests = 0;
  doctorTurns = 0;
  readonly cost = { latencyMs: 0, inputTokens: 0, outputTokens: 0, calls: 0, cached: 0 };
  /** The tracker's consultation, for a doctor that tracks no state of its own. */
  private readonly tracking: StateTracking | undefined;
  /** Patient turns whose state the tracker has not given yet. */
  private tracked: TrackedTurn[] = [];

  constructor(
    readonly patientCase: ConsultCase,
    readonly setup: ConsultationSetup,
    readonly doctor: DoctorSession,
    readonly patient: PatientSession | null,
    readonly options: CallOptions,
    doctorTracks: boolean,
  ) {
    this.tracking = doctorTracks ? undefined : setup.tracker?.start();
  }

  spent(info: RoleCallInfo | undefined): void {
    if (!info) return;
    this.cost.latencyMs += info.latencyMs;
    this.cost.inputTokens += info.usage?.inputTokens ?? 0;
    this.cost.outputTokens += info.usage?.outputTokens ?? 0;
    this.cost.calls += 1;
    if (info.cached) this.cost.cached += 1;
  }

  /** Whether the consultation's tracker records the state (else the doctor's own, when it tracks one). */
  get hasTracker(): boolean {
    return this.tracking !== undefined;
  }

  /**
   * Records a patient turn; the tracker (unless the doctor tracks its own state) reads it meanwhile,
   * and its state is written into the turn by {@link settle}.
   */
  patientSaid(text: string, revealed: readonly string[], formatError?: string): void {
    const state = this.tracking?.track(this.turns, text, this.options);
    if (state)
      this.tracked.push({
        index: this.turns.length,
        state: state.then(
          (tracked) => ({ state: tracked }),
          (error: unknown) => ({ error }),
        ),
      });
    this.turns.push({ speaker: "patient", text, revealed, ...(formatError ? { format_error: formatError } : {}) });
  }

  /** Writes the tracked states into their turns, once the tracker has given them (throws what it threw). */
  async settle(): Promise<void> {
    const tracked = this.tracked;
    this.tracked = [];
    for (const { index, state } of tracked) {
      const result = await state;
      if ("error" in result) throw result.error;
      const { format_error: formatError, ...turn } = this.turns[index]!;
      // The key order of a turn written as the state was tracked: state before format_error.
      this.turns[index] = { ...turn, state: result.state, ...(formatError ? { format_error: formatError } : {}) };
    }
  }

  /** Before a doctor's move: the states it may read are in place (not waited for when it reads none). */
  async beforeDoctor(): Promise<void> {
    if (this.doctor.readsTrackedStates !== false) await this.settle();
  }

  /** Gives the last patient turn the state the doctor tracked after hearing it. */
  fillDoctorState(): void {
    const state: DialogueState | null | undefined = this.doctor.trackedState?.();
    const index = this.turns.findLastIndex((turn) => turn.speaker === "patient");
    if (!state || index < 0 || this.turns[index]!.state) return;
    this.turns[index] = { ...this.turns[index]!, state };
  }

  async record(
    answer: string | null,
    ending: ConsultEnding,
    timeout: boolean,
    extra: Partial<ConsultationRecord> = {},
  ): Promise<ConsultationRecord> {
    try {
      await this.settle();
    } finally {
      this.tracking?.close?.();
    }
    if (this.tracking === undefined) this.fillDoctorState();
    return {
      answer,
      ending,
      timeout,
      questions: this.questions,
      requests: this.requests,
      ...extra,
      turns: this.turns,
      cost: this.cost,
    };
  }
}

/** The doctor turn of a move, as the transcript shows it. */
function doctorTurn(move: DoctorMove): ConsultTurn {
  if (move.kind === "request") return { speaker: "doctor", text: `REQUEST TEST: ${move.request}`, move: "request" };
  if (move.kind === "format_error") return { speaker: "doctor", text: move.text, format_error: move.reason };
  return { speaker: "doctor", text: move.text, move: move.kind };
}

/** The end of a consultation at a move that answers (or cannot be read). */
function ended(run: Run, move: DoctorMove, timeout: boolean): Promise<ConsultationRecord> {
  run.spent(move.info);
  run.turns.push(doctorTurn(move));
  if (move.kind === "format_error") return run.record(null, "format error", timeout, { format_error: move.reason });
  if (move.kind === "answer") return run.record(move.answer, timeout ? "timeout" : "answered", timeout);
  return run.record(null, "timeout", true);
}

/** Plays a question or a request and its answer; returns the record when the patient failed. */
async function answered(
  run: Run,
  move: DoctorMove & { kind: "question" | "request" },
): Promise<ConsultationRecord | undefined> {
  run.turns.push(doctorTurn(move));
  if (move.kind === "request") {
    run.requests += 1;
    const reply = (run.setup.reader ?? measurementReader()).answer(move.request, run.patientCase.measurements);
    run.turns.push({ speaker: "measurement", text: reply.text, revealed: reply.revealed });
    return undefined;
  }
  run.questions += 1;
  try {
    const reply = await run.patient!.answer(move.text, run.turns, run.options);
    await afterModelReply(reply.info);
    run.spent(reply.info);
    run.patientSaid(reply.text, reply.revealed, reply.format_error);
  } catch (error) {
    run.options.signal?.throwIfAborted();
    return run.record(null, "patient failed", false, { failure: (error as Error).message ?? String(error) });
  }
  return undefined;
}

/**
 * After a model's reply (not a cached one), the consultation goes on once the event loop has handled
 * the I/O that is waiting. Replies come in bunches (the requests in flight went out together), and
 * each frees its place in the backend's limit for the next request as soon as it is read: work on one
 * reply's consultation before the next reply is read would keep that place empty meanwhile.
 */
async function afterModelReply(info: RoleCallInfo | undefined): Promise<void> {
  if (info && !info.cached) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * How long the consultations on this thread may run before they let waiting I/O through. Embedded
 * roles answer at once, so a consultation of them (a control's whole list of questions) would run as
 * one chain of promise callbacks, and model replies arriving meanwhile would wait for its end.
 */
const SLICE_MS = 2;
/** When waiting I/O last got through (one clock for the thread: it is the thread's event loop that waits). */
let sliceStart = performance.now();

/** Lets waiting I/O through once the current slice is spent. */
async function letInputThrough(): Promise<void> {
  if (performance.now() - sliceStart < SLICE_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  sliceStart = performance.now();
}

/** The doctor's moves until it answers, cannot be read, or reaches its limit. */
async function play(run: Run): Promise<ConsultationRecord> {
  const { ending } = run.patientCase;
  const { maxQuestions, maxTurns } = run.setup.limits;
  for (;;) {
    await letInputThrough();
    await run.beforeDoctor();
    if (ending.kind === "choice" && run.questions >= maxQuestions)
      return ended(run, await run.doctor.decide(run.turns, run.options), true);
    const final = ending.kind === "diagnosis" && run.doctorTurns >= maxTurns - 1;
    const remaining = ending.kind === "choice" ? maxQuestions - run.questions : maxTurns - run.doctorTurns;
    const move = await run.doctor.next(run.turns, { remaining, final }, run.options);
    await afterModelReply(move.info);
    run.doctorTurns += 1;
    if (run.patient && !run.hasTracker) run.fillDoctorState();
    if (move.kind === "answer" || move.kind === "format_error" || final) return ended(run, move, final);
    run.spent(move.info);
    const failed = await answered(run, move);
    if (failed) return failed;
  }
}

/** Runs one consultation of a case; see the module comment. */
export async function runConsultation(
  patientCase: ConsultCase,
  setup: ConsultationSetup,
  options: CallOptions = {},
): Promise<ConsultationRecord> {
  const doctor = setup.doctor.start(patientCase);
  const run = new Run(
    patientCase,
    setup,
    doctor,
    setup.patient.start(patientCase),
    options,
    doctor.trackedState !== undefined,
  );
  if (patientCase.opening) run.patientSaid(patientCase.opening.text, patientCase.opening.facts);
  return play(run);
}

/**
 * The ceiling: the doctor answers with everything the case holds given up front — the patient's
 * opening, every fact in the patient's words, and every examination finding and test result — and
 * asks nothing. The transcript shows exactly what it was given.
 */
export async function runFullInformation(
  patientCase: ConsultCase,
  setup: ConsultationSetup,
  options: CallOptions = {},
): Promise<ConsultationRecord> {
  const doctor = setup.doctor.start(patientCase);
  // The tracker reads the facts for the answerer: a doctor that never spoke has tracked nothing itself.
  const run = new Run(patientCase, setup, doctor, null, options, false);
  const facts = patientCase.facts;
  if (facts.length > 0)
    run.patientSaid(
      facts.map((fact) => fact.spoken).join(" "),
      facts.map((fact) => fact.id),
    );
  if (patientCase.measurements.length > 0) {
    const results = patientCase.measurements.map((measurement) => `${fieldName(measurement)}: ${measurement.value}`);
    run.turns.push({
      speaker: "measurement",
      text: `RESULTS: ${results.join("; ")}`,
      revealed: patientCase.measurements.map((m) => m.id),
    });
  }
  await run.beforeDoctor();
  return ended(run, await doctor.decide(run.turns, options), false);
}
