import { groupKey, type HistoryPlan, type PlanItem } from "../../../language/history-plan.ts";
import type { LearnedStatistics } from "./learned-statistics.ts";

/**
 * The plan's priors updated by the training counts: every quantity the planner uses is a
 * pseudo-count blend `(strength · prior + Σ observations) / (strength + n)`, so an empty training
 * set leaves the plan as written, and each training dialogue moves the figures toward what doctors
 * actually did.
 */
export class PolicyModel {
  /** Order keys per list (lists are the plan's, so their identity is stable). */
  private readonly keys = new WeakMap<readonly string[], Map<string, number>>();

  constructor(
    readonly plan: HistoryPlan,
    readonly stats: LearnedStatistics,
  ) {}

  /**
   * Where an item falls in its order group (a body-system block or a section; 0 … 1): its position in
   * the plan's list, blended with its normalised positions in the training dialogues.
   */
  orderKey(item: PlanItem, list: readonly string[]): number {
    let keys = this.keys.get(list);
    if (!keys) {
      keys = new Map();
      this.keys.set(list, keys);
    }
    const cached = keys.get(item.id);
    if (cached !== undefined) return cached;
    const index = list.indexOf(item.id);
    const prior = list.length > 1 ? Math.max(index, 0) / (list.length - 1) : 0.5;
    const observed = this.stats.itemPositions.get(groupKey(list))?.get(item.id) ?? [];
    const strength = this.plan.file.priors.order_strength;
    const key =
      (strength * prior + observed.reduce((sum, position) => sum + position, 0)) / (strength + observed.length);
    keys.set(item.id, key);
    return key;
  }

  /**
   * Items that training doctors asked right after this one with probability at least ½, most likely
   * first. The plan's own next item holds `successor_strength` pseudo-counts, so a transition must be
   * seen repeatedly (several training dialogues agreeing) before it overrides the plan.
   */
  likelySuccessors(id: string): string[] {
    const next = this.stats.successors.get(id);
    if (!next) return [];
    const total = [...next.values()].reduce((sum, count) => sum + count, 0) + this.plan.file.priors.successor_strength;
    return [...next]
      .filter(([, count]) => count / total >= 0.5)
      .sort((a, b) => b[1] - a[1])
      .map(([successor]) => successor);
  }

  /** How many distinct items doctors ask in a section (plan's typical count blended with training). */
  quota(section: string): number {
    const typical = this.plan.file.sections.find((candidate) => candidate.id === section)?.typical_items ?? 0;
    const counts = this.stats.sectionCounts.get(section) ?? [];
    const strength = this.plan.file.priors.quota_strength;
    return Math.round(
      (strength * typical + counts.reduce((sum, count) => sum + count, 0)) / (strength + counts.length),
    );
  }

  /** How likely a doctor asks this attribute of a presenting complaint. */
  complaintCheckRate(check: string): number {
    const prior = this.plan.file.complaint_check_priors[check] ?? 0.5;
    const observed = this.stats.complaintChecks.get(check);
    const strength = this.plan.file.priors.complaint_check_strength;
    return (strength * prior + (observed?.taken ?? 0)) / (strength + (observed?.opportunities ?? 0));
  }

  /** How likely a newly reported positive of this slot is followed up with a check. */
  followUpRate(slot: string): number {
    const prior = this.plan.file.follow_up[slot]?.prior ?? 0;
    const observed = this.stats.followUps.get(slot);
    const strength = this.plan.file.priors.follow_up_strength;
    return (strength * prior + (observed?.taken ?? 0)) / (strength + (observed?.opportunities ?? 0));
  }

  /** The follow-up check types of a slot: the plan's list, the ones doctors used most first. */
  followUpChecks(slot: string): string[] {
    const checks = this.plan.file.follow_up[slot]?.checks ?? [];
    const used = this.stats.followUps.get(slot)?.checks;
    return [...checks].sort(
      (a, b) => (used?.get(b) ?? 0) - (used?.get(a) ?? 0) || checks.indexOf(a) - checks.indexOf(b),
    );
  }

  /**
   * The candidate values doctors attach to a check (`coughing`/`characteristics` → `["dry or wet"]`):
   * the most frequent choice in training, none when unseen or when bare checks are as frequent.
   */
  checkValues(slot: string, value: string, type: string): string[] | undefined {
    const counts = this.stats.checkValues.get(`${slot}|${value}|${type}`);
    if (!counts) return undefined;
    let best = "";
    let bestCount = counts.get("") ?? 0;
    for (const [values, count] of counts) {
      if (values !== "" && count > bestCount) {
        best = values;
        bestCount = count;
      }
    }
    return best === "" ? undefined : (JSON.parse(best) as string[]);
  }

  /** How likely a long patient turn gets a bare nod, after a question or unprompted. */
  nodRate(afterQuestion: boolean): number {
    const { priors } = this.plan.file;
    const observed = afterQuestion ? this.stats.nods.afterQuestion : this.stats.nods.unprompted;
    const prior = afterQuestion ? priors.nod_after_question : priors.nod_unprompted;
    return (priors.bare_move_strength * prior + observed.taken) / (priors.bare_move_strength + observed.opportunities);
  }

  /** How likely the doctor answers a patient's question (chit-chat) rather than asking on. */
  answerRate(): number {
    const { priors } = this.plan.file;
    const observed = this.stats.patientQuestions;
    return (
      (priors.bare_move_strength * priors.answer_patient_question + observed.taken) /
      (priors.bare_move_strength + observed.opportunities)
    );
  }
}
