import { describe, expect, it } from "vitest";
import {
  decodeRedFlagModel,
  encodeRedFlagModel,
  markedWords,
  sparseFeatures,
  type RedFlagModelHeader,
} from "../../src/clinical/red-flag-model.ts";
import { DEFAULT_TRAINING, trainRedFlagModel } from "../../src/clinical/red-flag-model-training.ts";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";
import { bundledSemanticRedFlags } from "../../src/clinical/red-flags-encoder.ts";
import { SemanticRedFlags } from "../../src/clinical/red-flags-semantic.ts";
import { LearnedRedFlags, loadLearnedRedFlags, runsEndingWithLast } from "../../src/clinical/red-flags-learned.ts";
import { loadStaticEncoder } from "../../src/clinical/static-sentence-encoder.ts";
import { Conversation } from "../../src/dialogue-manager/conversation.ts";
import { loadMeditod } from "../../src/data/meditod.ts";
import { buildEmbeddedEngine } from "../../src/modules/embedded/index.ts";
import {
  backgroundExamples,
  corpusExamples,
  developmentParts,
  patientLines,
  trainingDigest,
} from "../../data/red-flag-corpus/training-examples.ts";

describe("the learned red-flag model's reading of a turn", () => {
  it("marks the few words after a negation, up to a clause break or 'but', apostrophes or none", () => {
    expect(markedWords("I didn't faint, but my chest hurts")).toEqual([
      "i",
      "didnt",
      "not_faint",
      "but",
      "my",
      "chest",
      "hurts",
    ]);
    expect(markedWords("dont feel any numbness in my legs")).toEqual([
      "dont",
      "not_feel",
      "not_any",
      "not_numbness",
      "in",
      "my",
      "legs",
    ]);
    // Negative control: no negator, nothing marked.
    expect(markedWords("Numbness in my legs!")).toEqual(["numbness", "in", "my", "legs"]);
  });

  it("reads words and pairs of neighbouring words, each once", () => {
    expect(sparseFeatures("blood blood in sick")).toEqual([
      "w:blood",
      "w:in",
      "w:sick",
      "b:blood_blood",
      "b:blood_in",
      "b:in_sick",
    ]);
  });

  it("reads the first six letters of a longer word as its stem, negation kept", () => {
    const stems = (text: string) => sparseFeatures(text).filter((feature) => feature.startsWith("s:"));
    expect(stems("swollen and swolen")).toEqual(["s:swolle"]);
    expect(stems("not breathing, vomiting")).toEqual(["s:not_breath", "s:vomiti"]);
    // Negative control: words of six letters or fewer have no stem of their own.
    expect(stems("my throat is sore")).toEqual([]);
  });

  it("reads a turn alone and with the one or two turns before it", () => {
    expect(runsEndingWithLast(["a", "b", "c", "d"])).toEqual(["d", "c d", "b c d"]);
    expect(runsEndingWithLast(["only"])).toEqual(["only"]);
  });
});

describe("the model file", () => {
  const header: RedFlagModelHeader = {
    model: "test",
    classes: ["none", "a", "b"],
    features: ["w:x", "w:y"],
    denseDims: 1,
    denseScale: 4,
    encoder: "enc",
    threshold: 0.8,
    chosenBy: "test",
    trainingDigest: "0",
  };

  it("keeps each weight to within half a step of its row's int8 scale", () => {
    const weights = Float32Array.from([0.5, -1.27, 0, 3, 2, -1, 0, 0, 0, 0.01, -0.02, 0.03]);
    const decoded = decodeRedFlagModel(encodeRedFlagModel({ header, weights }));
    expect(decoded.header).toEqual(header);
    const scales = [1.27 / 127, 3 / 127, 0, 0.03 / 127];
    decoded.weights.forEach((value, index) =>
      expect(Math.abs(value - weights[index]!)).toBeLessThanOrEqual(scales[Math.floor(index / 3)]! / 2 + 1e-9),
    );
    // A zero row stays exactly zero.
    expect([...decoded.weights.subarray(6, 9)]).toEqual([0, 0, 0]);
  });

  it("refuses bytes that are not a model, or of the wrong size", () => {
    expect(() => decodeRedFlagModel(Buffer.from("USLS0000"))).toThrow(/not a red-flag model file/);
    const bytes = encodeRedFlagModel({ header, weights: new Float32Array(12) });
    expect(() => decodeRedFlagModel(bytes.subarray(0, bytes.length - 1))).toThrow(/wrong size/);
  });
});

describe("training", () => {
  const examples = [
    ...["my face droops", "face drooping on one side", "her face has dropped"].map((text) => ({
      text,
      label: "stroke",
      weight: 1,
    })),
    ...["black tarry poo", "poo like tar", "tarry black stools"].map((text) => ({ text, label: "bleed", weight: 1 })),
    ...["booked a haircut", "face cream ran out", "bought black shoes"].map((text) => ({
      text,
      label: "none",
      weight: 3,
    })),
  ];
  const noDense = () => new Float32Array(0);
  const settings = { ...DEFAULT_TRAINING, seeds: 2, epochs: 20, minCount: 1 };

  it("learns the classes of its examples, and does so the same way every time", () => {
    const trained = trainRedFlagModel(examples, ["none", "stroke", "bleed"], noDense, 0, settings);
    expect(trained.weights).toEqual(
      trainRedFlagModel(examples, ["none", "stroke", "bleed"], noDense, 0, settings).weights,
    );
    const header = { ...trained.shape, model: "t", features: trained.features, encoder: "e" };
    const model = new LearnedRedFlags(
      {
        header: { ...header, threshold: 0.5, chosenBy: "", trainingDigest: "" },
        weights: trained.weights,
      },
      { model: "e", encodeOne: noDense },
    );
    expect(model.matches("his face droops").map((match) => match.flag)).toEqual(["stroke"]);
    expect(model.matches("tarry poo").map((match) => match.flag)).toEqual(["bleed"]);
    // Negative control: words of the examples of no flag.
    expect(model.matches("booked a haircut")).toEqual([]);
  });

  it("refuses an example of a class it was not given", () => {
    expect(() => trainRedFlagModel(examples, ["none", "stroke"], noDense, 0, settings)).toThrow(/unknown class: bleed/);
  });
});

describe("the bundled model", () => {
  it("was trained on the development parts and training dialogues as they are now (else: npx tsx data/red-flag-corpus/train-model.ts)", async () => {
    const model = await loadLearnedRedFlags();
    const examples = [...corpusExamples(developmentParts()), ...backgroundExamples()];
    expect(developmentParts()).not.toContain("test-v2");
    expect(developmentParts()).not.toContain("test-v3");
    expect(developmentParts()).not.toContain("test-v4");
    expect(developmentParts()).not.toContain("test-v5");
    expect(developmentParts()).not.toContain("test-v6");
    expect(developmentParts()).not.toContain("test-v7");
    expect(developmentParts()).not.toContain("test-v8");
    expect(developmentParts()).not.toContain("test-v9");
    expect(developmentParts()).not.toContain("test-v10");
    expect(model.model.header.trainingDigest).toBe(trainingDigest(examples, DEFAULT_TRAINING));
    expect(model.model.header.encoder).toBe((await loadStaticEncoder()).model);
  });

  it("stays quiet on ordinary talk it never saw: the valid splits' patients' lines", async () => {
    const model = await loadLearnedRedFlags();
    const lines = patientLines("valid");
    expect(lines.length).toBeGreaterThan(500);
    const fired = lines.filter((line) => model.matches(line).length > 0);
    expect(fired.length / lines.length).toBeLessThan(0.01);
  });

  it("reads a feature told across turns: a fever, a rash, then that it does not fade under a glass", async () => {
    const model = await loadLearnedRedFlags();
    const told = ["she's had a fever since last night", "and now there's a rash on her legs"];
    const turns = [...told, "it doesnt fade when I press a glass on it"];
    expect(model.matchesOfLastTurn(turns).map((match) => match.flag)).toContain("fever_headache_stiff_neck");
    // Negative control: the rash fades. The model, which reads words and not their negation, fires on
    // the fever and the rash; the flag's learnedUnless sets a rash that blanches aside.
    const fades = "it fades when I press a glass on it";
    const rules = loadRedFlags();
    const kept = model
      .matchesOfLastTurn([...told, fades])
      .filter((match) => !rules.learnedSetAside(match.flag, match.text));
    expect(kept).toEqual([]);
    expect(rules.learnedSetAside("fever_headache_stiff_neck", "it doesnt fade when I press a glass on it")).toBe(false);
  });
});

describe("the learned model in a chat", () => {
  const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
  const signal = () => bundledSemanticRedFlags(loadRedFlags(), { cacheDir: null, statements: false });

  it("escalates on a paraphrase the rules lack, with its probability as evidence; a near-miss with its words does not", async () => {
    const paraphrase = "since the op my calf is puffy and I suddenly feel faint and my heart is pounding";
    expect(loadRedFlags().evaluateSaid([paraphrase])).toEqual([]);
    const semantic = signal();
    const fired = await new Conversation(engine, { semanticRedFlags: semantic }).say(paraphrase);
    expect(fired.escalation.map((flag) => flag.id)).toEqual(["pulmonary_embolism"]);
    expect(fired.escalation[0]!.evidence).toEqual([
      expect.stringMatching(/^said: "since the op my calf.*" \(the learned red-flag model: [01]\.\d\d\)$/),
    ]);
    expect(semantic.status()).toMatchObject({
      state: "on",
      statements: false,
      learnedModel: expect.stringMatching(/^red-flag-model-/),
    });
    const nearMiss = "my calf has been puffy since I sprained my ankle at football but otherwise I feel fine";
    expect((await new Conversation(engine, { semanticRedFlags: signal() }).say(nearMiss)).escalation).toEqual([]);
  });

  it("gives the first window that fired it as evidence once, not again with every later turn joined to it", async () => {
    // The ectopic flag waits for a pregnancy in question (learnedNeeds), then fires on all three windows at once.
    const conversation = new Conversation(engine, { semanticRedFlags: signal() });
    await conversation.say("ive got really bad pain low down on my left side since yesterday and i feel a bit faint");
    await conversation.say("im 26");
    await conversation.say("my period is 2 weeks late");
    const flag = conversation.snapshot().redFlags.find((candidate) => candidate.id === "ectopic_pregnancy");
    const learned = flag?.evidence.filter((item) => item.includes("the learned red-flag model")) ?? [];
    expect(learned).toEqual([expect.stringMatching(/^said: "ive got really bad pain[^"]*faint" \(the learned/)]);
  });

  it("a fever with a headache, or a child's fever, told alone is no emergency; with a feature of the flag it is", async () => {
    const flagsOf = async (said: string) =>
      (await new Conversation(engine, { semanticRedFlags: signal() }).say(said)).escalation.map((flag) => flag.id);
    // The model alone fired meningitis (0.99) and child sepsis (1.00) on these before the flags' learnedNeeds.
    expect(await flagsOf("ive had a fever and a bad headache since yesterday")).toEqual([]);
    expect(await flagsOf("my daughter is 4 and she has had a fever since yesterday and she's been sick twice")).toEqual(
      [],
    );
    // Negative controls: a feature said in lay words the rules lack still lets the model's reading stand.
    expect(await flagsOf("ive had a fever and a bad headache since yesterday and the telly hurts my eyes")).toContain(
      "fever_headache_stiff_neck",
    );
    expect(
      await flagsOf("my daughter is 4 and has had a fever since yesterday, now she's lying there like a rag doll"),
    ).toContain("sepsis_in_a_child");
  });

  it("a red sore eye is no loss of sight, nor a stomach bug ketoacidosis, until sight or diabetes is spoken of", async () => {
    const flagsOf = async (said: string) =>
      (await new Conversation(engine, { semanticRedFlags: signal() }).say(said)).escalation.map((flag) => flag.id);
    // The model alone fired sudden_loss_of_vision (0.99) and diabetic_ketoacidosis (1.00) on these.
    expect(await flagsOf("my right eye has been red and sore since yesterday")).toEqual([]);
    expect(await flagsOf("I've been vomiting since last night, stomach bug")).toEqual([]);
    // Negative controls: the model's reading stands once the sight is said to be affected.
    expect(
      await flagsOf("my right eye has been red and sore since yesterday and everything looks misty in it"),
    ).toContain("sudden_loss_of_vision");
  });

  it("a reaction told as long past is no anaphylaxis now (found in use, not in the corpus)", async () => {
    const flagsOf = async (said: string) =>
      (await new Conversation(engine, { semanticRedFlags: signal() }).say(said)).escalation.map((flag) => flag.id);
    // The model alone fired anaphylaxis (0.97) on this.
    expect(await flagsOf("my face swelled up from a bee sting last summer, I carry an epipen now")).toEqual([]);
    // Negative control: the past said beside a reaction now.
    expect(
      await flagsOf("I had a reaction to nuts last year and now my lips are swelling and my throat is tight"),
    ).toContain("anaphylaxis");
  });

  it("a croupy child's noisy breathing is no anaphylaxis until an allergen or a swelling is said", async () => {
    const flagsOf = async (said: string) =>
      (await new Conversation(engine, { semanticRedFlags: signal() }).say(said)).escalation.map((flag) => flag.id);
    // The model alone fired anaphylaxis (0.97) on this.
    expect(
      await flagsOf("my son is making a squeaky noise when he breathes in and his cough sounds like a bark"),
    ).not.toContain("anaphylaxis");
    expect(
      await flagsOf(
        "my son ate a cashew and now he's making a squeaky noise when he breathes in and his lips are swelling",
      ),
    ).toContain("anaphylaxis");
  });

  it("blood coughed up is the rules' coughing-blood flag, not the model's gut bleeding; blood vomited still is", async () => {
    const coughed = "I keep coughing up blood";
    const model = await loadLearnedRedFlags();
    // Below the bundled threshold, the model reads the blood as the gut's.
    expect(model.matchesOfLastTurn([coughed], 0.3).map((match) => match.flag)).toContain("gastrointestinal_bleeding");
    expect(loadRedFlags().learnedSetAside("gastrointestinal_bleeding", coughed)).toBe(true);
    const flagsOf = async (said: string) =>
      (await new Conversation(engine, { semanticRedFlags: signal() }).say(said)).escalation.map((flag) => flag.id);
    expect(await flagsOf(coughed)).toEqual(["coughing_blood"]);
    expect(await flagsOf("I've been spitting blood")).toEqual(["coughing_blood"]);
    // Negative controls: vomited blood, and a cough with vomited blood, stay gut bleeding.
    expect(loadRedFlags().learnedSetAside("gastrointestinal_bleeding", "I threw up blood")).toBe(false);
    expect(await flagsOf("I threw up blood")).toEqual(["gastrointestinal_bleeding"]);
    expect(loadRedFlags().learnedSetAside("gastrointestinal_bleeding", "I was coughing and then vomited blood")).toBe(
      false,
    );
  });

  it("an ectopic pregnancy needs a pregnancy in question: one-sided low pain alone is no ectopic until a late period is said", async () => {
    const pain = "im 24 and ive got a sharp pain low down on my right side since last night";
    const model = await loadLearnedRedFlags();
    // The model alone reads the pain as an ectopic pregnancy: the flag's learnedNeeds sets it aside.
    expect(model.matchesOfLastTurn([pain]).map((match) => match.flag)).toContain("ectopic_pregnancy");
    const rules = loadRedFlags();
    expect(rules.learnedNeedsUnmet("ectopic_pregnancy", rules.signs.readAll([pain]))).toBe(true);
    const chat = new Conversation(engine, { semanticRedFlags: signal() });
    expect((await chat.say(pain)).escalation).toEqual([]);
    // Negative control: the late period said next puts the pregnancy in question, and the flag fires.
    const late = await chat.say("my period is about 2 weeks late actually");
    expect(late.escalation.map((flag) => flag.id)).toEqual(["ectopic_pregnancy"]);
    expect(
      rules.learnedNeedsUnmet("ectopic_pregnancy", rules.signs.readAll([pain, "we've been trying for a baby"])),
    ).toBe(false);
  });

  it("a missing model turns the signal off with its reason; the rules still fire", async () => {
    const semantic = new SemanticRedFlags({
      loadEncoder: () => loadStaticEncoder(),
      anchors: [],
      thresholds: loadRedFlags().file.semantic,
      cacheDir: null,
      loadLearned: () => loadLearnedRedFlags("/nonexistent/red-flag-model.bin"),
    });
    const outcome = await new Conversation(engine, { semanticRedFlags: semantic }).say(
      "my dad's face has gone droopy on one side",
    );
    expect(outcome.escalation.map((flag) => flag.id)).toContain("stroke_signs");
    expect(semantic.status()).toMatchObject({ state: "failed" });
    expect(semantic.status().reason).toMatch(/failed to load: ENOENT.*red-flag-model\.bin/);
  });

  it("a model trained on another encoder is refused", async () => {
    const { model } = await loadLearnedRedFlags();
    const another = { model: "another-encoder", encodeOne: () => new Float32Array(128) };
    expect(() => new LearnedRedFlags(model, another)).toThrow(/trained on use-lite-static-.*, not another-encoder/);
  });
});
