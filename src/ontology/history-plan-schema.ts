import * as z from "zod";
import { criterionSchema } from "./criteria-schema.ts";
import { regexSourceSchema } from "./regex-source-schema.ts";

/**
 * The zod schema of `ontology/history-plan.json`, the embedded policy's history-taking plan. Its
 * cross-checks against CMAS (slots, check types) are made when the plan is compiled
 * (`src/language/history-plan.ts`).
 */

const checkSchema = z.strictObject({ type: z.string(), values: z.array(z.string()).optional() });

export const planItemSchema = z.strictObject({
  id: z.string().min(1),
  section: z.string(),
  slot: z.string(),
  values: z.array(z.string()).min(1),
  /** State values that also mean the item is known (the patient's answer may be worded as these). */
  aliases: z.array(z.string()).optional(),
  check: checkSchema.optional(),
  /** For location-checked items: state locations that mean the item is known (default: the check's values). */
  locations_known: z.array(z.string()).optional(),
  cues: z.array(z.string()).min(1),
  /** For items of several values: cues telling which of them a question named ("any fevers?" leaves chills). */
  value_cues: z.record(z.string(), z.array(z.string())).optional(),
  /** Asked only in a live history (chat, self-play), where a complaint question or the patient calls for it; the benchmark planner never asks it. */
  live_only: z.boolean().optional(),
});

export const stepPartSchema = z.strictObject({
  /** `$` is the complaint symptom itself. */
  value: z.string(),
  check: z.string().optional(),
  /** Ask only when the value is a positive symptom (sputum volume only when there is sputum). */
  when_positive: z.boolean().optional(),
  /** Ask only of a symptom felt somewhere (the lexicon's `locatable` concepts): "where is the fatigue?" is never asked. */
  when_locatable: z.boolean().optional(),
  /** A live history (chat, self-play) asks this step whatever the learned rate: a pain's severity, an episodic symptom's frequency. */
  live: z.boolean().optional(),
  /**
   * For a companion symptom no plan item asks (photophobia for a headache): the doctor's words that
   * ask it (case-insensitive), so that a question the patient's answer did not settle counts as asked.
   */
  asked_cues: z.array(z.string()).min(1).optional(),
});

export const complaintSchema = z.strictObject({
  id: z.string(),
  symptoms: z.array(z.string()),
  cues: z.array(z.string()),
  area: z.string(),
  /** For a located symptom (pain, swelling…): the sites this template is for, as patterns on its location ("abdom", "back"). */
  locations: z.array(z.string()).optional(),
  /**
   * The attribute steps, or "cmas": every symptom attribute `ontology/cmas.json` has a question for,
   * in its order, except the plan's `symptom_specific_checks` (the template of symptoms the plan does not know).
   */
  steps: z.union([z.literal("cmas"), z.array(z.array(stepPartSchema).min(1)).min(1)]),
});

/**
 * What a live history (chat, self-play) asks beyond the training doctors' habits, as a clinician
 * would. The MediTOD benchmark leaves these out: its score is agreement with the annotated doctors.
 */
/**
 * One question a complaint calls for in a live history: a check of the complaint symptom (its
 * `check_values` and `asked_cue` tell a question of its own apart, as "does it spread anywhere?" from
 * "where is the pain?"), or a plan item.
 */
/** A complaint attribute as the state reads it: the attribute and a pattern one of its values matches. */
const attributeReadingSchema = z.strictObject({ attribute: z.string(), pattern: regexSourceSchema });

export const complaintAskSchema = z.union([
  z.strictObject({
    check: z.string(),
    check_values: z.array(z.string()).min(1).optional(),
    /** A doctor's words that ask it (case-insensitive), when the check's own cues would also match other questions. */
    asked_cue: z.string().optional(),
    /** Asked only while the complaint's attribute reads so (the length of each bout only of a pain that comes and goes). */
    only_when: attributeReadingSchema.optional(),
    /** Already answered when the complaint's attribute reads so (where the pain spreads, volunteered). */
    known_when: attributeReadingSchema.optional(),
  }),
  z.strictObject({ item: z.string() }),
]);

/** Who a complaint question is for (all given must hold): a woman of child-bearing age, a child. */
export const patientFilterSchema = z.strictObject({
  sex: z.enum(["female", "male"]).optional(),
  min_age: z.number().nonnegative().optional(),
  max_age: z.number().positive().optional(),
});

/**
 * The questions a presenting complaint calls for before any generic review (pain: radiation and the
 * length of episodes; breathlessness: lying flat, waking at night, how far, ankle swelling), and the
 * review of systems it chooses instead of its area's whole list.
 */
export const complaintQuestionsSchema = z.strictObject({
  id: z.string().min(1),
  why: z.string().min(1),
  /** Complaint symptoms it is for (absent: any complaint), with their sites as patterns. */
  complaint: z.strictObject({ symptoms: z.array(z.string()).min(1), locations: z.array(z.string()).optional() }).optional(),
  patient: patientFilterSchema.optional(),
  asks: z.array(complaintAskSchema).min(1),
  /** The review of systems for this complaint: item ids, asked in this order, instead of the area's blocks. */
  review: z.array(z.string()).optional(),
  /**
   * Asked first, before the complaint's own template and any other complaint: a question whose answer
   * changes what is urgent (a possible pregnancy with lower abdominal pain).
   */
  first: z.boolean().optional(),
});

export const liveHistorySchema = z.strictObject({
  description: z.string(),
  /** Slot → follow-up checks asked of each positive entry of it, whatever the learned rate. */
  follow_up: z.record(z.string(), z.array(z.string()).min(1)),
  /** Plan items asked once the state meets a criterion (night sweats once a constitutional symptom is found). */
  screens: z.array(z.strictObject({ item: z.string(), why: z.string(), when: criterionSchema })),
  /** Questions each complaint (or kind of patient) calls for, the first matching review chosen. */
  complaint_questions: z.array(complaintQuestionsSchema),
  /**
   * The background every history covers, asked in this order once the complaint and the review of its
   * own body system (the review the complaint chose, else the first `own_system_blocks` blocks of its
   * area's review) are done, before the rest of the review of systems: past history, medicines,
   * allergies, family history, habits, work, home. An entry with `when` is asked only when the state
   * meets it (travel after a fever); `replaces` names the items a live history leaves out because this
   * question asks them better ("otherwise healthy?" beside "any medical conditions?").
   */
  background: z.strictObject({
    why: z.string().min(1),
    own_system_blocks: z.number().int().nonnegative(),
    /** Review items screened before the background, after the complaint's own systems: fever and chills, whatever the complaint. */
    review_first: z.array(z.string()),
    items: z
      .array(
        z.strictObject({
          item: z.string(),
          replaces: z.array(z.string()).optional(),
          when: criterionSchema.optional(),
        }),
      )
      .min(1),
  }),
  /**
   * A child (up to `max_age` years): these items are never asked (smoking, alcohol, work); a young child
   * (up to `young.max_age`) is not asked `young.skip_items` either (night sweats and weight loss of a
   * baby: feeding and wet nappies tell it), not even as a complaint's step.
   */
  child: z.strictObject({
    max_age: z.number().positive(),
    skip_items: z.array(z.string()),
    young: z.strictObject({ max_age: z.number().positive(), skip_items: z.array(z.string()) }),
  }),
});

export const historyPlanSchema = z.strictObject({
  name: z.string(),
  version: z.string(),
  description: z.string(),
  sections: z.array(z.strictObject({ id: z.string(), label: z.string(), typical_items: z.number().nonnegative() })).min(1),
  check_attributes: z.record(z.string(), z.array(z.string())),
  check_cues: z.record(z.string(), z.array(z.string())),
  complaints: z.array(complaintSchema).min(1),
  complaint_closer: z.string(),
  /** Check types that only fit some symptoms (sputum volume, rash size): never in a template derived from cmas.json. */
  symptom_specific_checks: z.array(z.string()),
  /** Prior probability that a doctor asks each attribute of a presenting complaint. */
  complaint_check_priors: z.record(z.string(), z.number().min(0).max(1)),
  /** Review of systems per complaint area: blocks of item ids, one body system each, in plan order. */
  areas: z.array(z.strictObject({ id: z.string(), review_of_systems: z.array(z.array(z.string()).min(1)).min(1) })).min(1),
  items: z.array(planItemSchema).min(1),
  follow_up: z.record(z.string(), z.strictObject({ checks: z.array(z.string()), prior: z.number().min(0).max(1) })),
  follow_up_exempt: z.array(z.string()),
  live_history: liveHistorySchema,
  priors: z.strictObject({
    order_strength: z.number().nonnegative(),
    successor_strength: z.number().nonnegative(),
    complaint_check_strength: z.number().nonnegative(),
    quota_strength: z.number().nonnegative(),
    follow_up_strength: z.number().nonnegative(),
    bare_move_strength: z.number().nonnegative(),
    nod_after_question: z.number().min(0).max(1),
    nod_unprompted: z.number().min(0).max(1),
    answer_patient_question: z.number().min(0).max(1),
    long_answer_words: z.number().int().positive(),
  }),
  closing: z.strictObject({
    question_cues: z.array(z.string()),
    explanation_cues: z.array(z.string()),
    explanation_min_words: z.number().int().nonnegative(),
    farewell_cues: z.array(z.string()),
  }),
});
