import type { DialogueState, DoctorAction } from "../../../cmas/schemas.ts";
import type { DialogueTurn } from "../../../language/module-interfaces.ts";
import { askOf, bareAction, inquire, type Ask } from "./actions.ts";
import {
  checkAsked,
  findComplaint,
  nextComplaintStep,
  SCREEN_VALUES,
  SCREEN_WORDS,
  type ComplaintFocus,
} from "./chief-complaint.ts";
import { closingMove, diagnosisActions } from "./closing.ts";
import { clarificationMove } from "../../../language/repeat-requests.ts";
import {
  asksDoctor,
  isQuestion,
  wordCount,
  type ConversationReading,
  type ConversationReader,
} from "./conversation-reader.ts";
import { reviewOfSystemsFor, type PlanItem } from "../../../language/history-plan.ts";
import { unknownValues } from "./item-knowledge.ts";
import { choiceToClarify, hasLiveFollowUp, liveFollowUp, screenItem } from "./live-history.ts";
import {
  applicableQuestions,
  skippedItems,
  liveFocus,
  patientFacts,
  type AppliedQuestions,
  type PatientFacts,
} from "./complaint-questions.ts";
import type { Informant } from "../../../language/informant.ts";
import type { PatientRequest } from "../../../language/patient-requests.ts";
import { historyAskedOfPatient, speaksForPatient } from "../nlg/proxy-wording.ts";
import type { PolicyModel } from "./policy-model.ts";
import { dueIce, iceAsked, type IceKind } from "../../../language/ice-questions.ts";
import { StateFacts } from "./state-facts.ts";
import { evidenceFor } from "../../../clinical/criteria.ts";
import { spokenValue } from "../../../language/lay-terms.ts";

/**
 * The history-taking planner: one confident move per turn, because the policy metrics reward a turn
 * whose tuples equal the doctor's (Precision@K) and penalise every extra tuple (F1). In order:
 * 1. the closing, once the doctor has opened it (diagnosis, then goodbye);
 * 2. an answer (chit-chat) to a patient's question, or a bare acknowledgement after a long
 *    unprompted patient story, as often as doctors do either;
 * 3. a follow-up on a positive finding just reported (its onset, a habit's quantity), as often as
 *    doctors follow up that kind of finding;
 * 4. the presenting complaint's unexplored attributes, then "has this happened before?";
 * 5. the next plan item after the one the doctor asked last (the cursor), in the learned order,
 *    skipping what the state knows or the doctor already asked, section by section;
 * 6. "any questions?" when nothing is left.
 * A live conversation (chat, self-play) also asks what a clinician asks beyond the training doctors'
 * habits (`live_history` of the plan): screening items (night sweats once weight loss is found) before
 * the next plan item, the complaint template's live steps (a pain's severity), every medication's dose and response;
 * and when the patient asks to hear the question again or what it means, it asks the same question
 * once more (the NLG words it more plainly), then moves on if they ask again (`src/language/repeat-requests.ts`).
 */

export interface PlannerDecision {
  readonly actions: DoctorAction[];
  /** Which rule decided, for tests and debugging. */
  readonly reason:
    | "opening"
    | "closing"
    | "diagnosis"
    | "farewell"
    | "answer"
    | "nod"
    | "follow-up"
    | "which"
    | "complaint"
    | "plan"
    | "repeat"
    | "ice"
    | "invite";
  /** The plan item asked, when the move is a plan item. */
  readonly item?: string;
}

/** Whether a value of the symptom's attribute matches a complaint ask's reading (`only_when`, `known_when`). */
function attributeReads(
  facts: StateFacts,
  symptom: string,
  reading: { readonly attribute: string; readonly pattern: string },
): boolean {
  const raw = facts.find("symptom", symptom)?.entry[reading.attribute];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const pattern = new RegExp(reading.pattern, "i");
  return values.some((value) => typeof value === "string" && pattern.test(value));
}

/** The ICE questions asked once the complaint is explored; expectations wait for the end of the history. */
const COMPLAINT_ICE: readonly IceKind[] = ["ideas", "concerns"];

/** Where the doctor is in the plan: exploring the complaint, or at an item. */
type Cursor = { readonly kind: "complaint" } | { readonly kind: "item"; readonly item: PlanItem };

/**
 * A block's items from the cursor on (the cursor item first: a question may have named only some of
 * its values), then the ones before it; the whole block when the cursor is elsewhere.
 */
function fromCursor(block: readonly PlanItem[], cursor: PlanItem | undefined): readonly PlanItem[] {
  const at = cursor ? block.indexOf(cursor) : -1;
  return at < 0 ? block : [...block.slice(at), ...block.slice(0, at)];
}

/** Background sections (past history … residence), as opposed to the complaint and the review of systems. */
const isChecklist = (item: PlanItem) => item.section !== "chief_complaint" && item.section !== "review_of_systems";

/** What the plan walk needs to know about the conversation so far. */
interface Walk {
  /** The item has values the state lacks and no question has named (and it is not the complaint itself). */
  readonly pending: (item: PlanItem) => boolean;
  /** The doctor has asked about some item of this body-system block. */
  readonly touched: (block: readonly PlanItem[]) => boolean;
  /** The section has had as many items asked as doctors usually ask. */
  readonly done: (section: string) => boolean;
  readonly area: string;
  /** A live history's review chosen by the complaint. */
  readonly review: ComplaintFocus["review"];
}

/**
 * "How old are you?": a doctor's question about the patient's age. Example: "OK, and how old are you?".
 * Not a plan item: the MediTOD doctors ask it when they need it (two of the three dialogues we can
 * read, in passing), and a plan item would move the benchmark planner's cursor there with them.
 */
const AGE_QUESTION = /\bhow old\b|\byour age\b|\bwhat age\b/i;

/** What a live conversation (chat, self-play) adds to the planner's inputs; the benchmark has none. */
interface Live {
  readonly state: DialogueState;
  /** The doctor's turns so far, in order. */
  readonly doctorTexts: readonly string[];
  /** The conversation so far (as asked of the patient when a relative speaks). */
  readonly history: readonly DialogueTurn[];
  /** The age is still to be asked before the closing (nobody asked it yet). */
  readonly askAge: boolean;
  /** The patient's age and sex, from the state or the informant. */
  readonly patient: PatientFacts;
}

/** How a decision is made: live (chat, self-play) or as the benchmark, and who the history is about. */
export interface DecideOptions {
  readonly askOn?: boolean;
  readonly informant?: Informant | null;
  /** What the patient's last turn asked of the doctor (live histories answer it). */
  readonly requests?: readonly PatientRequest[];
}

/** Probability threshold for the learned rates (nods, follow-ups): act when doctors usually do. */
const ACT_THRESHOLD = 0.5;

export class HistoryPlanner {
  /** Section (review of systems: per complaint area) → its blocks of items in learned order. */
  private readonly blockCache = new Map<string, readonly (readonly PlanItem[])[]>();

  constructor(
    private readonly model: PolicyModel,
    private readonly reader: ConversationReader,
  ) {}

  /**
   * Decides the doctor's next actions from the conversation so far and the patient profile. With
   * `askOn` (a live conversation), an answer or acknowledgement is never the whole reply while the
   * plan has a question left: the next question follows it ("OK, I see. And when did it start?").
   * Without it (the MediTOD benchmark), the bare move stands, as the training doctors make it.
   */
  decide(history: readonly DialogueTurn[], state: DialogueState, options: DecideOptions = {}): PlannerDecision {
    // A relative is asked about the patient ("has she…"): the questions are read as asked of the patient.
    const informant = options.informant ?? undefined;
    if (speaksForPatient(informant))
      return this.decide(historyAskedOfPatient(history), state, {
        ...options,
        informant: { ...informant, relation: null },
      });
    const facts = new StateFacts(state);
    const conversation = this.reader.read(history, (value) => facts.isPositive("symptom", value));
    if (conversation.opening === undefined) return { actions: bareAction("nod_prompt_salutations"), reason: "opening" };
    const again = options.askOn ? this.askAgain(history, state, options) : undefined;
    if (again) return again;
    // "Can we stop here": the history ends now, politely, with what the doctor will pass on.
    if (options.askOn && options.requests?.some((request) => request.kind === "stop"))
      return { actions: diagnosisActions(state, facts), reason: "diagnosis" };

    const closing = closingMove(this.model.plan, conversation);
    if (closing === "diagnosis") return { actions: diagnosisActions(state, facts), reason: "diagnosis" };
    if (closing === "farewell") return { actions: bareAction("nod_prompt_salutations"), reason: "farewell" };

    // A live patient's question or request is acknowledged (the NLG answers or declines it) before the next question.
    const requested = options.askOn === true && (options.requests?.length ?? 0) > 0;
    const bare: PlannerDecision | undefined =
      requested || this.answers(conversation)
        ? { actions: bareAction("chit-chat"), reason: "answer" }
        : this.acknowledges(conversation)
          ? { actions: bareAction("nod_prompt_salutations"), reason: "nod" }
          : undefined;
    const askOn = options.askOn ?? false;
    const live: Live | undefined = askOn
      ? {
          state,
          doctorTexts: history.filter((turn) => turn.speaker === "doctor").map((turn) => turn.text),
          history,
          askAge: !history.some((turn) => turn.speaker === "doctor" && AGE_QUESTION.test(turn.text)),
          patient: patientFacts(facts, options.informant),
        }
      : undefined;
    if (!bare) return this.nextQuestion(conversation, facts, live);
    if (!askOn) return bare;
    const next = this.nextQuestion(conversation, facts, live);
    return next.actions.some((action) => action.action === "inquire")
      ? { ...next, actions: [...bare.actions, ...next.actions] }
      : bare;
  }

  /**
   * A live patient's first request to repeat or explain the doctor's last question: the same question
   * again, as decided before the patient asked (the request records nothing, so the state is the same),
   * without its acknowledgement; the closing's "any questions for me?" too; the opening line (the
   * dialogue manager's) as a chit-chat the NLG words. Undefined otherwise: a second request in a row
   * moves on as any patient question does.
   */
  private askAgain(
    history: readonly DialogueTurn[],
    state: DialogueState,
    options: DecideOptions,
  ): PlannerDecision | undefined {
    if (clarificationMove(history) !== "repeat") return undefined;
    const asked = history.findLastIndex((turn) => turn.speaker === "doctor");
    // The opening line is the dialogue manager's: the NLG asks it again in other words.
    if (asked === 0) return { actions: bareAction("chit-chat"), reason: "repeat" };
    if (asked < 0) return undefined;
    const before = this.decide(history.slice(0, asked), state, options);
    const questions = before.actions.filter((action) => action.action === "inquire");
    if (questions.length > 0) return { ...before, actions: questions, reason: "repeat" };
    return before.reason === "closing" ? { ...before, reason: "repeat" } : undefined;
  }

  /**
   * The next question of the history (a follow-up, the complaint's next step, the next plan item), or
   * the closing. A live history also asks what `live_history` of the plan adds (see live-history.ts).
   */
  private nextQuestion(conversation: ConversationReading, facts: StateFacts, live: Live | undefined): PlannerDecision {
    const { plan } = this.model;
    // No complaint heard yet ("hi", "I just feel a bit off"): invite it once, before any other question.
    if (live && facts.positives("symptom").length === 0 && live.doctorTexts.length <= 1)
      return { actions: [{ action: "inquire" }], reason: "invite" };
    // "Yes" to "any fevers or weight loss?": which of them, before anything else (a red flag waits for it).
    const which = live && choiceToClarify(live.history, facts);
    if (which) return { actions: inquire(which), reason: "which" };
    const found = findComplaint(plan, facts, conversation);
    const applied = live ? applicableQuestions(plan, found, facts, live.patient) : [];
    const focus = live ? liveFocus(plan, found, applied) : found;
    const followUp =
      this.followUp(conversation, facts, focus, live !== undefined) ??
      (live && liveFollowUp(plan, this.reader, conversation, facts, live.doctorTexts));
    if (followUp) return { actions: inquire([followUp]), reason: "follow-up" };
    // A question that changes what is urgent (a possible pregnancy) comes before the rest of the complaint.
    const first = applied.filter(({ questions }) => questions.first);
    const urgent =
      live && first.length > 0 && this.complaintQuestion(first, conversation, facts, focus, live.doctorTexts);
    if (urgent) return { actions: inquire(urgent), reason: "complaint" };

    const cursor = this.cursor(conversation, focus);
    const skipped = live ? this.liveSkipped(live.patient) : new Set<string>();
    if (cursor.kind === "complaint") {
      const step = nextComplaintStep(this.model, facts, conversation, focus, live !== undefined, skipped);
      if (step) return { actions: inquire(step), reason: "complaint" };
    }
    // The complaint's own questions come before any generic review, wherever a companion question left the cursor.
    if (live && (cursor.kind === "complaint" || !isChecklist(cursor.item))) {
      const question = this.complaintQuestion(applied, conversation, facts, focus, live.doctorTexts);
      if (question) return { actions: inquire(question), reason: "complaint" };
    }
    const open = (item: PlanItem) =>
      !item.live_only &&
      !skipped.has(item.id) &&
      !item.values.some((value) => focus.symptoms.includes(value)) &&
      this.openValues(item, conversation, facts).length > 0;
    const screened = this.screen(live, cursor, open, focus.area);
    const items = screened
      ? [screened]
      : live
        ? this.liveItems(cursor, conversation, facts, focus, { ...live, skipped })
        : [this.nextItem(cursor, conversation, facts, focus, skipped)].filter((one) => one !== undefined);
    const item = items[0];
    // Once the complaint is explored, what the patient thinks it is and what worries them (the NLG words the one due).
    const ice = live && this.iceDue(conversation, live.history);
    if (ice && !screened && item && item.section !== "chief_complaint" && dueIce(live.history, COMPLAINT_ICE))
      return { actions: bareAction("chit-chat"), reason: "ice" };
    const asks = items.flatMap((one) => this.asksFor(one, conversation, facts));
    if (item) return { actions: inquire(asks), reason: "plan", item: item.id };
    // A live history asks the age before it closes, unless the patient gave it (or their sex) or was asked.
    if (live?.askAge && !facts.hasAny("basic_information"))
      return { actions: inquire([{ slot: "basic_information", value: "none" }]), reason: "plan" };
    // What they hoped for (and any idea or worry not yet heard) before the closing.
    if (ice) return { actions: bareAction("chit-chat"), reason: "ice" };
    return { actions: bareAction("chit-chat"), reason: "closing" };
  }

  /**
   * The items a live history does not ask: those the patient's age rules out (a child's smoking), and
   * those a background question asks better (its `replaces`: "otherwise healthy?" beside "any medical
   * conditions?", which would read as asked by the cues they share).
   */
  private liveSkipped(patient: PatientFacts): Set<string> {
    const skipped = new Set(skippedItems(this.model.plan, patient));
    for (const entry of this.model.plan.file.live_history.background.items)
      for (const id of entry.replaces ?? []) skipped.add(id);
    return skipped;
  }

  /**
   * The next question the complaint calls for in a live history (its `complaint_questions`), once the
   * complaint template's steps are done: a check of the complaint symptom not yet asked, or a plan
   * item still open.
   */
  private complaintQuestion(
    applied: readonly AppliedQuestions[],
    conversation: ConversationReading,
    facts: StateFacts,
    focus: ComplaintFocus,
    doctorTexts: readonly string[],
  ): Ask[] | undefined {
    const { plan } = this.model;
    for (const { questions, symptom } of applied) {
      for (const ask of questions.asks) {
        if ("item" in ask) {
          const item = plan.itemsById.get(ask.item)!;
          if (item.values.some((value) => focus.symptoms.includes(value) && !item.check)) continue;
          if (this.openValues(item, conversation, facts).length > 0) return this.asksFor(item, conversation, facts);
          continue;
        }
        if (symptom === null) continue;
        // "How long does each bout last?" only of a pain that comes and goes.
        if (ask.only_when && !attributeReads(facts, symptom, ask.only_when)) continue;
        if (ask.known_when && attributeReads(facts, symptom, ask.known_when)) continue;
        const cue = ask.asked_cue ? new RegExp(ask.asked_cue, "i") : null;
        // Never the same question twice in a row, however another wording reads: the last question asked this check of it.
        const last = conversation.lastDoctor;
        const justAsked = cue !== null && last?.symptoms.includes(symptom) === true && last.checks.includes(ask.check);
        const asked = cue
          ? justAsked || doctorTexts.some((text) => cue.test(text))
          : facts.hasAttribute("symptom", symptom, plan.file.check_attributes[ask.check] ?? [ask.check]) ||
            checkAsked(conversation, focus, symptom, ask.check);
        if (!asked) return [askOf("symptom", symptom, ask.check, ask.check_values)];
      }
    }
    return undefined;
  }

  /**
   * Whether an ideas, concerns or expectations question is still due. Not right after a doctor turn
   * that asked nothing the reader knows: an NLG that does not word the ICE question (its lone
   * chit-chat said as "OK, I see.") would otherwise bring it back every turn.
   */
  private iceDue(conversation: ConversationReading, history: readonly DialogueTurn[]): boolean {
    const last = conversation.lastDoctor;
    const silent =
      last !== undefined &&
      last.items.length === 0 &&
      last.checks.length === 0 &&
      !last.closingQuestion &&
      iceAsked(conversation.lastDoctorText ?? "") === undefined;
    return !silent && dueIce(history) !== undefined;
  }

  /**
   * A live history's screening item due now (night sweats once weight loss is found), after the
   * complaint's closer ("has this happened before?"), which finishes the complaint.
   */
  private screen(
    live: Live | undefined,
    cursor: Cursor,
    open: (item: PlanItem) => boolean,
    area: string,
  ): PlanItem | undefined {
    if (!live) return undefined;
    if (cursor.kind === "complaint" && this.blocks("chief_complaint", area)[0]!.some(open)) return undefined;
    return screenItem(this.model.plan, live.state, open);
  }

  /** A patient's question gets an answer (chit-chat) when doctors usually answer rather than ask on. */
  private answers(conversation: ConversationReading): boolean {
    const said = conversation.lastPatient;
    return (
      conversation.patientSpokeLast &&
      said !== undefined &&
      asksDoctor(said) &&
      this.model.answerRate() >= ACT_THRESHOLD
    );
  }

  /** A long patient turn gets a bare nod when doctors usually nod in that context. */
  private acknowledges(conversation: ConversationReading): boolean {
    const said = conversation.lastPatient;
    if (!conversation.patientSpokeLast || said === undefined) return false;
    if (wordCount(said) < this.model.plan.file.priors.long_answer_words) return false;
    const afterQuestion = conversation.lastDoctorText !== undefined && isQuestion(conversation.lastDoctorText);
    return this.model.nodRate(afterQuestion) >= ACT_THRESHOLD;
  }

  /**
   * A positive finding just reported (the answer to the doctor's last item, or a symptom the patient
   * brought up in the last turn) whose follow-up attributes are unknown and unasked.
   */
  private followUp(
    conversation: ConversationReading,
    facts: StateFacts,
    focus: ComplaintFocus,
    live: boolean,
  ): Ask | undefined {
    const { plan } = this.model;
    const last = conversation.lastDoctor;
    if (!last) return undefined;
    const reported: Array<{ slot: string; value: string }> = [];
    for (const id of last.items) {
      const item = plan.itemsById.get(id)!;
      for (const value of [...item.values, ...item.aliases])
        if (facts.isPositive(item.slot, value)) reported.push({ slot: item.slot, value });
    }
    for (const item of this.reader.symptomItems(conversation.lastPatient ?? "")) {
      for (const value of [...item.values, ...item.aliases])
        if (facts.isPositive("symptom", value)) reported.push({ slot: "symptom", value });
    }
    for (const { slot, value } of reported) {
      if (focus.phaseValues.has(value) || plan.file.follow_up_exempt.includes(value)) continue;
      // A live history follows these slots up its own way (every positive entry, every check).
      if (live && hasLiveFollowUp(plan, slot)) continue;
      if (this.model.followUpRate(slot) < ACT_THRESHOLD) continue;
      for (const check of this.model.followUpChecks(slot)) {
        const attributes = plan.file.check_attributes[check] ?? [check];
        if (facts.hasAttribute(slot, value, attributes) || checkAsked(conversation, focus, value, check)) continue;
        return askOf(slot, value, check, this.model.checkValues(slot, value, check));
      }
    }
    return undefined;
  }

  /**
   * The doctor's place in the plan: the last plan item asked, read backwards through the doctor's
   * turns. Turns about the complaint (its symptoms and companions) put the cursor on the complaint;
   * an attribute question naming no item is about what the patient had just mentioned; turns that
   * name nothing ("how so?") do not move it.
   */
  private cursor(conversation: ConversationReading, focus: ComplaintFocus): Cursor {
    const { plan } = this.model;
    const review = focus.review ? { flat: focus.review.items } : reviewOfSystemsFor(plan, focus.area);
    let found: Cursor | undefined;
    for (let index = conversation.doctor.length - 1; index >= 0; index -= 1) {
      const reading = conversation.doctor[index]!;
      const ids = reading.items.length > 0 ? reading.items : reading.topics;
      if (ids.length === 0) continue;
      const items = ids.map((id) => plan.itemsById.get(id)!);
      // The complaint's own questions keep the doctor on the complaint, whatever their slot (a possible pregnancy).
      const outside = items.filter(
        (item) => ![...item.values, ...item.aliases].some((value) => focus.phaseValues.has(value)),
      );
      // A cue shared by items of several areas ("swelling") means the item of the complaint's area.
      const inArea = outside.filter((item) => item.section !== "review_of_systems" || review.flat.includes(item.id));
      const here: Cursor =
        outside.length === 0
          ? { kind: "complaint" }
          : { kind: "item", item: (inArea.length > 0 ? inArea : outside).at(-1)! };
      found ??= here;
      if (found.kind === "item" && isChecklist(found.item)) return found;
      // Once the background history has begun, a symptom question is an aside ("I forgot to ask…"):
      // the cursor stays on the last background item.
      const checklist = outside.filter(isChecklist);
      if (checklist.length > 0) return { kind: "item", item: checklist.at(-1)! };
    }
    return found ?? { kind: "complaint" };
  }

  /**
   * A section's blocks, each in learned order: the review of systems has one block per body system
   * (of the complaint's area); every other section is a single block.
   */
  private blocks(section: string, area: string, review?: ComplaintFocus["review"]): readonly (readonly PlanItem[])[] {
    const chosen = section === "review_of_systems" ? review : undefined;
    const key = section === "review_of_systems" ? `${section}:${chosen ? `live:${chosen.id}` : area}` : section;
    let blocks = this.blockCache.get(key);
    if (!blocks) {
      const { plan } = this.model;
      // A chosen review is a list of single questions: asking one does not close the others.
      const lists = chosen
        ? chosen.items.map((id) => [id])
        : section === "review_of_systems"
          ? reviewOfSystemsFor(plan, area).blocks
          : [plan.sectionItems.get(section) ?? []];
      blocks = lists.map((ids) =>
        ids
          .map((id) => plan.itemsById.get(id)!)
          .sort((a, b) => this.model.orderKey(a, ids) - this.model.orderKey(b, ids)),
      );
      this.blockCache.set(key, blocks);
    }
    return blocks;
  }

  /**
   * The next plan item to ask: a transition training doctors agree on, else the complaint's closer,
   * else the review of systems (from the complaint or a symptom question), else the checklists.
   */
  private nextItem(
    cursor: Cursor,
    conversation: ConversationReading,
    facts: StateFacts,
    focus: ComplaintFocus,
    skipped: ReadonlySet<string> = new Set(),
  ): PlanItem | undefined {
    const walk = this.walkOf(conversation, facts, focus, skipped);
    const at = cursor.kind === "item" ? cursor.item : undefined;
    if (at) {
      const successor = this.successor(at, walk);
      if (successor) return successor;
    } else {
      const closer = this.blocks("chief_complaint", focus.area)[0]!.find(walk.pending);
      if (closer) return closer;
    }
    if (!at || !isChecklist(at)) {
      const symptom = this.reviewItem(at, walk);
      if (symptom) return symptom;
    }
    return this.checklistItem(at, walk);
  }

  /** What the plan walk needs to know, from the conversation so far; see {@link Walk}. */
  private walkOf(
    conversation: ConversationReading,
    facts: StateFacts,
    focus: ComplaintFocus,
    skipped: ReadonlySet<string>,
  ): Walk {
    return {
      pending: (item) =>
        (!item.live_only || focus.review?.items.includes(item.id) === true) &&
        !skipped.has(item.id) &&
        !item.values.some((value) => focus.symptoms.includes(value)) &&
        this.openValues(item, conversation, facts).length > 0,
      // Questions about the complaint's own companions (sputum for a cough) do not open their system.
      touched: (block) =>
        block.some(
          (item) => conversation.askedItems.has(item.id) && !item.values.some((value) => focus.phaseValues.has(value)),
        ),
      done: (section) =>
        this.blocks(section, focus.area)[0]!.filter((item) => conversation.askedItems.has(item.id)).length >=
        this.model.quota(section),
      area: focus.area,
      review: focus.review,
    };
  }

  /**
   * A live history's next plan item, in the order a clinician takes a history: the complaint's closer
   * and the review of the complaint's own body system (the plan's walk), then the background every
   * history covers (`live_history.background`: past history, medicines, allergies, family, habits,
   * work, home), then the rest of the review of systems, one question a body system (its symptoms
   * asked together, as a clinician screens the systems away from the complaint), then what the
   * checklists have left. The benchmark walk ({@link nextItem}) asks the whole review first, one
   * symptom a turn, as the training doctors do; with a question budget that left most histories
   * without their background. The items asked in one turn, or none.
   */
  private liveItems(
    cursor: Cursor,
    conversation: ConversationReading,
    facts: StateFacts,
    focus: ComplaintFocus,
    live: Live & { readonly skipped: ReadonlySet<string> },
  ): PlanItem[] {
    const planned = this.nextItem(cursor, conversation, facts, focus, live.skipped);
    if (planned?.section === "chief_complaint") return [planned];
    const walk = this.walkOf(conversation, facts, focus, live.skipped);
    // A screen already made in part ("any fevers?" among a tiredness's companions) is not finished alone
    // before the background: a lone "any chills?" next drew nothing on MediQ dev.
    const partly = (item: PlanItem) => item.values.some((value) => conversation.askedValues.has(`${item.id}|${value}`));
    const fresh: Walk = { ...walk, pending: (item) => walk.pending(item) && !partly(item) };
    const own = this.ownSystemItem(fresh);
    if (own) return this.systemScreen(own, fresh);
    const { plan } = this.model;
    const general = plan.file.live_history.background.review_first
      .map((id) => plan.itemsById.get(id)!)
      .find(fresh.pending);
    if (general) return this.systemScreen(general, fresh);
    const background = plan.file.live_history.background.items.find(
      (entry) =>
        !live.skipped.has(entry.item) &&
        this.openValues(plan.itemsById.get(entry.item)!, conversation, facts).length > 0 &&
        (entry.when === undefined || evidenceFor(entry.when, live.state) !== null),
    );
    if (background) return [plan.itemsById.get(background.item)!];
    const review = this.reviewItem(this.lastReviewItem(conversation, walk), walk);
    if (review) return this.systemScreen(review, walk);
    return planned ? [planned] : [];
  }

  /**
   * A body system screened in one question ("any chest pain, palpitations or ankle swelling?"): the
   * item and the other open symptom items of its block that ask no detail; an item that asks a detail
   * (pain at a site) alone.
   */
  private systemScreen(item: PlanItem, walk: Walk): PlanItem[] {
    const plain = (candidate: PlanItem) => candidate.slot === "symptom" && candidate.check === undefined;
    if (!plain(item)) return [item];
    const block = this.blocks("review_of_systems", walk.area, walk.review).find((candidate) =>
      candidate.includes(item),
    );
    const words = (one: PlanItem) =>
      one.values.reduce((sum, value) => sum + spokenValue(one.slot, value).split(" ").length, 0);
    const screened = [item];
    let values = item.values.length;
    let said = words(item);
    for (const other of block ?? []) {
      if (other === item || !plain(other) || !walk.pending(other)) continue;
      // A question a patient can take in, and a "no" that reaches its last symptom: the rest waits for the next turn.
      // The limits of a complaint's companions (chief-complaint.ts: SCREEN_VALUES, SCREEN_WORDS).
      if (values + other.values.length > SCREEN_VALUES || said + words(other) > SCREEN_WORDS) break;
      screened.push(other);
      values += other.values.length;
      said += words(other);
    }
    return screened;
  }

  /**
   * The next item of the complaint's own body system, asked before the background: the review the
   * complaint chose, else the first block of its area's review, then the other `own_system_blocks`
   * blocks (the neighbouring system) each until a question has opened it. The caller screens two
   * symptoms a question ({@link systemScreen}).
   */
  private ownSystemItem(walk: Walk): PlanItem | undefined {
    const blocks = this.blocks("review_of_systems", walk.area, walk.review);
    if (walk.review) return blocks.flat().find(walk.pending);
    const [own, ...neighbours] = blocks.slice(0, this.model.plan.file.live_history.background.own_system_blocks);
    // A neighbouring system gets one screening question, not a walk: walked one symptom a turn, it left a
    // 20-question history short of its habits, work and home (MediQ dev, see the commit that added this).
    const neighbour = neighbours.filter((block) => !walk.touched(block)).flat();
    return own?.find(walk.pending) ?? neighbour.find(walk.pending);
  }

  /** The review-of-systems item the doctor asked last (the cursor stays on the background meanwhile). */
  private lastReviewItem(conversation: ConversationReading, walk: Walk): PlanItem | undefined {
    const blocks = this.blocks("review_of_systems", walk.area, walk.review);
    for (let index = conversation.doctor.length - 1; index >= 0; index -= 1) {
      const ids = conversation.doctor[index]!.items;
      const inReview = ids.find((id) => blocks.some((block) => block.some((item) => item.id === id)));
      if (inReview !== undefined) return this.model.plan.itemsById.get(inReview);
    }
    return undefined;
  }

  /** What training doctors asked right after this item, when they agree often enough (and it is still open). */
  private successor(at: PlanItem, walk: Walk): PlanItem | undefined {
    for (const id of this.model.likelySuccessors(at.id)) {
      const item = this.model.plan.itemsById.get(id)!;
      if (!walk.pending(item)) continue;
      if (item.section === "review_of_systems") {
        const block = this.blocks("review_of_systems", walk.area, walk.review).find((candidate) =>
          candidate.includes(item),
        );
        if (!block || (!block.includes(at) && walk.touched(block))) continue;
      } else if (item.section === "chief_complaint" || walk.done(item.section)) continue;
      return item;
    }
    return undefined;
  }

  /**
   * Review of systems: the doctor finishes the body system at hand, then opens the next system
   * nobody has asked about yet (a system left half-way was left on purpose).
   */
  private reviewItem(at: PlanItem | undefined, walk: Walk): PlanItem | undefined {
    const blocks = this.blocks("review_of_systems", walk.area, walk.review);
    const index = at ? blocks.findIndex((block) => block.includes(at)) : -1;
    if (index >= 0) {
      const same = fromCursor(blocks[index]!, at).find(walk.pending);
      if (same) return same;
    }
    for (const block of [...blocks.slice(index + 1), ...blocks.slice(0, Math.max(index, 0))]) {
      if (walk.touched(block)) continue;
      const next = block.find(walk.pending);
      if (next) return next;
    }
    return undefined;
  }

  /**
   * The background checklists (past history … residence), each completed up to the number of items
   * doctors usually ask in it, from the cursor's section on in plan order, then any earlier one left open.
   */
  private checklistItem(at: PlanItem | undefined, walk: Walk): PlanItem | undefined {
    const checklists = this.model.plan.sectionOrder.filter(
      (id) => id !== "chief_complaint" && id !== "review_of_systems",
    );
    const from = at ? checklists.indexOf(at.section) : -1;
    const order = from >= 0 ? [...checklists.slice(from), ...checklists.slice(0, from)] : checklists;
    for (const section of order) {
      if (walk.done(section)) continue;
      const next = fromCursor(this.blocks(section, walk.area)[0]!, at).find(walk.pending);
      if (next) return next;
    }
    return undefined;
  }

  /** An item's values that the state lacks and no question has named. */
  private openValues(item: PlanItem, conversation: ConversationReading, facts: StateFacts): string[] {
    return unknownValues(item, facts).filter((value) => !conversation.askedValues.has(`${item.id}|${value}`));
  }

  /** The asks for an item: its open values, with its check and learned check values. */
  private asksFor(item: PlanItem, conversation: ConversationReading, facts: StateFacts): Ask[] {
    const check = item.check;
    return this.openValues(item, conversation, facts).map((value) =>
      askOf(
        item.slot,
        value,
        check?.type,
        check && (check.values ?? this.model.checkValues(item.slot, value, check.type)),
      ),
    );
  }
}
