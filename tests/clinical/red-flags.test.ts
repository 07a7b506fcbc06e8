import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { DialogueState } from "../../src/cmas/schemas.ts";
import { loadRedFlags, parseRedFlags } from "../../src/clinical/red-flags.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { caseFromDialogue } from "../../src/simulator/patient-simulator.ts";

const rules = loadRedFlags();
const bundled = (): { flags: Array<Record<string, unknown>> } & Record<string, unknown> =>
  JSON.parse(readFileSync(new URL("../../ontology/red-flags.json", import.meta.url), "utf8"));

describe("red flags as data", () => {
  it("cover the flags the issue names, each with criteria, plain advice and an example that fires it", () => {
    const ids = rules.flags.map((flag) => flag.id);
    for (const id of [
      "chest_pain_with_breathlessness_or_sweating",
      "thunderclap_headache",
      "coughing_blood",
      "weight_loss_with_night_sweats",
      "saddle_numbness_or_sphincter_change",
      "suicidal_thoughts",
      "anaphylaxis",
    ]) {
      expect(ids).toContain(id);
    }
    for (const flag of rules.flags) {
      expect(rules.evaluate(flag.example.state).map((fired) => fired.id)).toContain(flag.id);
      // Plain words: no Latin-Greek clinical names in what the patient is told.
      expect(flag.advice).not.toMatch(
        /\b(dyspnea|hemoptysis|diaphoresis|syncope|melena|anaphylaxis|paresthesia|ideation)\b/i,
      );
    }
  });

  it("read statuses: a denied finding does not fire", () => {
    expect(
      rules.evaluate({
        positive_symptom: [{ value: "chest pain" }],
        negative_symptom: [{ value: "dyspnea" }, { value: "sweating" }],
      }),
    ).toEqual([]);
    const fired = rules.evaluate({
      positive_symptom: [{ value: "chest pain" }, { value: "sweating" }],
      negative_symptom: [{ value: "dyspnea" }],
    });
    expect(fired).toMatchObject([
      {
        id: "chest_pain_with_breathlessness_or_sweating",
        urgency: "emergency",
        evidence: ["positive symptom: chest pain", "positive symptom: sweating"],
      },
    ]);
  });

  it("read attributes: only a sudden or worst-ever headache is a thunderclap headache", () => {
    const ids = (state: Parameters<typeof rules.evaluate>[0]) => rules.evaluate(state).map((flag) => flag.id);
    expect(ids({ positive_symptom: [{ value: "headache", initiation: "gradually", severity: "4" }] })).toEqual([]);
    expect(ids({ positive_symptom: [{ value: "headache", initiation: "suddenly" }] })).toEqual([
      "thunderclap_headache",
    ]);
    expect(ids({ positive_symptom: [{ value: "headache", severity: "10" }] })).toEqual(["thunderclap_headache"]);
    expect(ids({ positive_symptom: [{ value: "headache", severity: "1" }] })).toEqual([]);
    // A list attribute matches when any of its items does.
    expect(ids({ positive_symptom: [{ value: "numbness", location: ["foot", "groin"] }] })).toEqual([
      "saddle_numbness_or_sphincter_change",
    ]);
    expect(ids({ positive_symptom: [{ value: "numbness", location: ["foot"] }] })).toEqual([]);
  });

  it("read negations in the criteria: a seizure in known epilepsy is not a first seizure", () => {
    expect(rules.evaluate({ positive_symptom: [{ value: "seizures" }] }).map((flag) => flag.id)).toEqual([
      "first_seizure",
    ]);
    expect(
      rules.evaluate({ positive_symptom: [{ value: "seizures" }], positive_medical_history: [{ value: "epilepsy" }] }),
    ).toEqual([]);
  });

  it("read a chest pain's pattern: exertional pain that eases with rest, for months and no worse, is possible angina (see a doctor today), not a heart attack", () => {
    const ids = (state: Parameters<typeof rules.evaluate>[0]) => rules.evaluate(state).map((flag) => flag.id);
    const stable = {
      value: "chest pain",
      aggravating_factor: ["physical exertion"],
      alleviating_factor: ["rest"],
      onset: "3 months ago",
    };
    expect(ids({ positive_symptom: [stable, { value: "dyspnea" }] })).toEqual(["exertional_chest_pain"]);
    expect(rules.evaluate({ positive_symptom: [stable] })[0]).toMatchObject({ urgency: "same_day" });
    // Exertional pain with breathlessness, its relief by rest not told: the emergency, alone.
    expect(
      ids({ positive_symptom: [{ value: "chest pain", aggravating_factor: ["walking"] }, { value: "dyspnea" }] }),
    ).toEqual(["chest_pain_with_breathlessness_or_sweating"]);
    // Negative controls: the same pattern getting worse, begun today, or coming on at rest is the emergency.
    for (const unstable of [
      { ...stable, progression: "getting worse, more often" },
      { ...stable, onset: "this morning" },
      { ...stable, initiation: "at rest, watching TV" },
    ])
      expect(ids({ positive_symptom: [unstable, { value: "sweating" }] })).toEqual([
        "chest_pain_with_breathlessness_or_sweating",
      ]);
    // Chest pain with no exertion in it fires neither.
    expect(ids({ positive_symptom: [{ value: "chest pain", onset: "2 weeks ago" }] })).toEqual([]);
  });

  it("hear a rash that does not fade under a glass told after the rash ('it doesnt fade when I press a glass on it')", () => {
    const ids = (turns: string[]) => rules.evaluateSaid(turns).map((flag) => flag.id);
    const told = ["my baby has a high temperature", "and a rash"];
    expect(ids([...told, "it doesnt fade when I press a glass on it"])).toEqual([
      "fever_headache_stiff_neck",
      "sepsis_in_a_child",
    ]);
    // Negative control: it fades under the glass.
    expect(ids([...told, "it fades when I press a glass on it"])).toEqual([]);
  });

  it("read bright red blood from below as gut bleeding only with faintness; blood vomited or black stools alone still are", () => {
    const ids = (state: DialogueState) => rules.evaluate(state).map((flag) => flag.id);
    // "Some blood on the toilet paper after straining, I think it's piles": no emergency.
    expect(ids({ positive_symptom: [{ value: "hematochezia" }] })).toEqual([]);
    expect(ids({ positive_symptom: [{ value: "hematochezia" }, { value: "presyncope" }] })).toEqual([
      "gastrointestinal_bleeding",
    ]);
    for (const value of ["melena", "hematemesis"])
      expect(ids({ positive_symptom: [{ value }] })).toEqual(["gastrointestinal_bleeding"]);
  });

  it("set the state's stroke reading aside for a face numb after the dentist, unless a weak arm is said too", () => {
    const numbFace: DialogueState = { positive_symptom: [{ value: "numbness", location: ["face"] }] };
    const ids = (said: string) => rules.evaluate(numbFace, [said]).map((flag) => flag.id);
    expect(ids("my face feels numb after the dentist")).toEqual([]);
    // Negative controls: a weak arm beside it, or nothing said that explains it (the state alone).
    expect(ids("my face feels numb after the dentist and my left arm is weak")).toEqual(["stroke_signs"]);
    expect(rules.evaluate(numbFace).map((flag) => flag.id)).toEqual(["stroke_signs"]);
    const screened = rules.evaluateConversation(
      numbFace,
      rules.signs.readAll(["my face feels numb after the dentist"]),
    );
    expect(screened).toEqual([]);
  });

  it("hear someone collapsed who cannot be woken or is not breathing normally, not a faint that came round nor sleep apnoea", () => {
    const ids = (said: string) => rules.evaluateSaid([said]).map((flag) => flag.id);
    for (const said of [
      "my wife collapsed and she is breathing weird and I cant wake her",
      "my dad is unconscious on the kitchen floor",
      "she's stopped breathing",
    ])
      expect(ids(said), said).toEqual(["collapsed_and_unresponsive"]);
    for (const said of [
      "I passed out for a second when I stood up but I'm fine now",
      "my mum collapsed yesterday but she came round straight away and is chatting now",
      "I stopped breathing at night according to my wife, she says I snore",
      "I can't wake up in the mornings, I'm always tired",
    ])
      expect(ids(said), said).toEqual([]);
  });

  it("set the state's torsion reading aside for a testicle sore for a week after cycling, not for a sudden pain", () => {
    const sore: DialogueState = { positive_symptom: [{ value: "pain", location: ["testicle"] }] };
    const ids = (said: string) => rules.evaluate(sore, [said]).map((flag) => flag.id);
    expect(ids("my testicle has been a bit sore for a week after cycling")).toEqual([]);
    // Negative controls: a sudden pain, or the state alone.
    expect(ids("my testicle suddenly started hurting an hour ago")).toEqual(["testicular_torsion"]);
    expect(rules.evaluate(sore).map((flag) => flag.id)).toEqual(["testicular_torsion"]);
  });

  it("set the state's gut-bleeding reading aside for black stools on iron tablets, not with faintness beside them", () => {
    const black: DialogueState = { positive_symptom: [{ value: "melena" }] };
    const ids = (said: string) => rules.evaluate(black, [said]).map((flag) => flag.id);
    expect(ids("my poo is black since I've been taking iron")).toEqual([]);
    // Negative controls: feeling faint beside it, or the state alone.
    expect(ids("my poo is black and tarry and I feel faint, I'm on iron tablets")).toEqual([
      "gastrointestinal_bleeding",
    ]);
    expect(rules.evaluate(black).map((flag) => flag.id)).toEqual(["gastrointestinal_bleeding"]);
  });

  it("read the everyday twins of development-v23's false alarms, and its missed statements' kin (hand-written)", () => {
    const ids = (said: string) => rules.evaluateSaid([said]).map((flag) => flag.id);
    // A hand slept on is no stroke; a face drooping beside it is.
    expect(
      ids("dozed off with my arm draped over the chair and woke with my hand floppy, shook it out and it's fine"),
    ).toEqual([]);
    expect(ids("woke with my whole left hand floppy and my face has gone droopy on that side")).toEqual([
      "stroke_signs",
    ]);
    // Blood brought up after a nosebleed is no gut bleeding; a cup of blood vomited is.
    expect(
      ids("nosebleed last night and this morning I coughed and brought up a little old blood, fine otherwise"),
    ).toEqual([]);
    expect(ids("I vomited about a cupful of blood this morning")).toEqual(["gastrointestinal_bleeding"]);
    // "Facial droop" and "right-sided weakness" said as a carer writes them.
    expect(ids("Dad has new right-sided weakness and a facial droop since lunch")).toEqual(["stroke_signs"]);
    // Looking up how high a place is, with hopelessness; not a car park's prices.
    expect(ids("I've been googling which floor of the multistorey is highest, I can't do this anymore")).toEqual([
      "suicidal_thoughts",
    ]);
    expect(ids("I was googling multistorey car park prices near the stadium for the match")).toEqual([]);
  });

  it("hear a panic attack that passed as no heart attack, unless the chest is still tight", () => {
    const ids = (said: string) => rules.evaluateSaid([said]).map((flag) => flag.id);
    expect(
      ids("I had a panic attack, my chest was tight and I felt like I couldn't breathe, it passed after 10 minutes"),
    ).toEqual([]);
    expect(ids("I thought it was a panic attack but my chest is still tight and I can't breathe")).toEqual([
      "chest_pain_with_breathlessness_or_sweating",
    ]);
  });

  it("hear a high noise breathing in, or blue lips, as the noisy-breathing flag; not a blocked nose nor a cold pool", () => {
    const ids = (said: string) => rules.evaluateSaid([said]).map((flag) => flag.id);
    expect(ids("he's making a funny noise when he breathes in, his cough is like a seal")).toEqual([
      "blue_lips_or_noisy_breathing",
    ]);
    expect(ids("his lips are going blue")).toEqual(["blue_lips_or_noisy_breathing"]);
    expect(ids("my baby is snuffly and makes a noise when she breathes in through her blocked nose")).toEqual([]);
    expect(ids("my lips are blue from the cold pool")).toEqual([]);
  });

  it("hear a wish to die said as a wish ('sometimes I wish I could just die'), not the idiom ('…die of embarrassment')", () => {
    const ids = (said: string) => rules.evaluateSaid([said]).map((flag) => flag.id);
    expect(ids("sometimes I wish I could just die")).toEqual(["suicidal_thoughts"]);
    expect(ids("I wish I could die of embarrassment, I tripped in front of everyone")).toEqual([]);
  });

  it("on the sample's gold histories: none for 115 (COPD-like) and 317 (COVID-like); chest pain with breathlessness for RES0001", () => {
    const dataset = loadMeditod();
    const development = loadMeditod(fileURLToPath(new URL("../../data/meditod-dev/", import.meta.url)));
    expect(rules.evaluate(caseFromDialogue(dataset, "115").profile)).toEqual([]);
    expect(rules.evaluate(caseFromDialogue(dataset, "317").profile)).toEqual([]);
    expect(rules.evaluate(caseFromDialogue(development, "RES0001").profile).map((flag) => flag.id)).toEqual([
      "chest_pain_with_breathlessness_or_sweating",
    ]);
  });

  it("word the escalation: an opening, each flag's advice, then the choice to go on or stop", () => {
    const fired = rules.evaluate(rules.flags[0]!.example.state);
    const text = rules.escalationText(fired);
    expect(text.startsWith(rules.file.escalation.opening)).toBe(true);
    expect(text).toContain(fired[0]!.advice);
    expect(text.endsWith(rules.file.escalation.closing)).toBe(true);
  });

  it("reject a file that names an unknown slot or attribute, a bad pattern, or an example that does not fire", () => {
    const withFlag = (change: (flag: Record<string, unknown>) => void) => {
      const file = bundled();
      change(file.flags[2]!);
      return () => parseRedFlags(JSON.stringify(file));
    };
    expect(withFlag((flag) => (flag.criteria = { finding: { slot: "symptoms", values: ["hemoptysis"] } }))).toThrow(
      /unknown slot 'symptoms'/,
    );
    expect(
      withFlag(
        (flag) =>
          (flag.criteria = { finding: { slot: "symptom", values: ["hemoptysis"], attributes: { colour: "red" } } }),
      ),
    ).toThrow(/no attribute 'colour'/);
    expect(
      withFlag(
        (flag) =>
          (flag.criteria = { finding: { slot: "symptom", values: ["hemoptysis"], attributes: { color: "(" } } }),
      ),
    ).toThrow(/not a regular expression/);
    expect(
      withFlag((flag) => (flag.criteria = { finding: { slot: "symptom", values: ["hemoptysis"], status: "avail" } })),
    ).toThrow(/not a status of symptom/);
    expect(
      withFlag((flag) => (flag.example = { said: "fine", state: { positive_symptom: [{ value: "coughing" }] } })),
    ).toThrow(/does not fire it/);
    expect(withFlag((flag) => (flag.urgency = "whenever"))).toThrow(/urgency/);
    const file = bundled();
    (file.semantic as { modifierSigns: string[] }).modifierSigns.push("quickly");
    expect(() => parseRedFlags(JSON.stringify(file))).toThrow(/modifierSigns: unknown sign 'quickly'/);
  });

  it("hear a flag's subject in its own signs, not in a modifier ('sudden') nor in a sign under a 'not'", () => {
    const rules = loadRedFlags();
    const heard = (flag: string, said: string) => rules.subjectHeard(flag, rules.signs.read(said));
    expect(heard("pulmonary_embolism", "my calf is swollen")).toBe(true);
    expect(heard("testicular_torsion", "my left testicle aches")).toBe(true);
    // Negative controls: a modifier of several flags alone, another flag's subject, and a taken-back sign.
    expect(heard("pulmonary_embolism", "it came on suddenly")).toBe(false);
    expect(heard("testicular_torsion", "my period is late")).toBe(false);
    expect(heard("gastrointestinal_bleeding", "I'm on iron tablets")).toBe(false);
    expect(heard("pulmonary_embolism", "there's no swollen leg")).toBe(false);
    // A flag with no stated criteria is never heard so.
    expect(rules.flags.find((flag) => flag.id === "first_seizure")?.stated).toBeUndefined();
    expect(heard("first_seizure", "I had a fit for the first time")).toBe(false);
  });
});
