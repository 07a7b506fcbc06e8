import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadRedFlags } from "../../src/clinical/red-flags.ts";

type Statement = string | string[];
interface CorpusPart {
  readonly flags: Record<string, { fires: Statement[]; nearMisses: Statement[] }>;
}
const rules = loadRedFlags();
const part = (name: string): CorpusPart =>
  JSON.parse(readFileSync(new URL(`../../data/red-flag-corpus/${name}.json`, import.meta.url), "utf8")) as CorpusPart;
const fired = (statement: string | readonly string[]) =>
  rules.evaluateSaid(typeof statement === "string" ? [statement] : [...statement]).map((flag) => flag.id);

/**
 * The must-fire statements of a corpus part that do not fire their flag (each as `flag: its first turn`),
 * after checking that none of the part's near-misses fires any flag.
 */
function missedStatements(name: string): Set<string> {
  const missed = new Set<string>();
  for (const [flag, { fires, nearMisses }] of Object.entries(part(name).flags)) {
    for (const statement of fires)
      if (!fired(statement).includes(flag)) missed.add(`${flag}: ${[statement].flat()[0]}`);
    for (const statement of nearMisses) expect(fired(statement), JSON.stringify(statement)).toEqual([]);
  }
  return missed;
}

describe("red flags on the lay-words corpus (the patient's side, written before the rules)", () => {
  it("development statements (development.json, and test.json used for development after one scoring): every statement fires its flag, and no near-miss fires any flag", () => {
    for (const name of ["development", "test"]) {
      for (const [flag, { fires, nearMisses }] of Object.entries(part(name).flags)) {
        for (const statement of fires) expect(fired(statement), JSON.stringify(statement)).toContain(flag);
        for (const statement of nearMisses) expect(fired(statement), JSON.stringify(statement)).toEqual([]);
      }
    }
  });

  it("the third development part (development-v3.json, written for breadth): no near-miss fires any flag, and every statement fires its flag but two, each named with why", () => {
    // Left on purpose, so that the rules do not learn one sentence: a sore (not stiff) neck (fever with
    // confusion fires instead); "hit me like a lightning bolt" with the headache denied the turn before.
    // (Heartburn alone still does not count as chest pain: the heartburn told in one turn fires because
    // the next says the pain spreads to the arm and neck with sweating.)
    const known = new Set([
      "fever_headache_stiff_neck: my wife has high fever and she is confused, not knowing where she is, and she says her neck hurts",
      "thunderclap_headache: I never get headaches",
    ]);
    expect(missedStatements("development-v3")).toEqual(known);
  });

  it("the fourth development part (development-v4.json, speakers from outside Britain and Ireland): no near-miss fires any flag, and every statement fires its flag", () => {
    // (A wife who "just said 'my head' and grabbed it", worst pain ever, came on instantly, now fires:
    // "said 'my head'" names the head as what hurts, as development-v12's "suddenly said 'my head!'" does.
    // A sudden "worst pain ever" with vomiting but no head said still must not fire the headache flag.)
    expect(missedStatements("development-v4")).toEqual(new Set());
  });

  it("the fifth development part (development-v5.json, vague and indirect wordings): no near-miss fires any flag, and every statement fires its flag but nine, named with why", () => {
    // Left on purpose: each would need a reading that also fires on everyday words — a testicle never
    // named ("down there", "my bits", "one of mine downstairs", "between his legs"), a late period said only
    // as "she's late", a neck held (not stiff), a sudden headache named only as "one" or "not a
    // migraine", a blow "from behind" with no head said.
    const known = new Set([
      "ectopic_pregnancy: flatmate's late, she's doubled over on one side and says her shoulder tip hurts, she's grey",
      "testicular_torsion: my son's 14 and he came down white and said it really hurts 'down there', he won't say more, he's been sick",
      "testicular_torsion: something's wrong with my bits, sudden agony on one side, can't stand up straight",
      "testicular_torsion: grandson, 12, doubled over",
      "testicular_torsion: i dont know how to say it, pain in one of mine downstairs, came from nowhere really bad and its gone swollen",
      "fever_headache_stiff_neck: she's not making sense, burning up, and keeps holding the back of her neck and moaning, she's 23",
      "thunderclap_headache: im 20 and i dont get headaches but i just got one during sex that went from nothing to unbearable in like a minute",
      "thunderclap_headache: honestly like being smacked with a bat from behind, came on in a flash, it's not easing",
      "thunderclap_headache: not a migraine, I know my migraines, this came on in seconds and it's ten times worse",
    ]);
    expect(missedStatements("development-v5")).toEqual(known);
  });

  it("the sixth development part (development-v6.json, each feature in many wordings): no near-miss fires any flag, and every statement fires its flag but three, named with why", () => {
    // Left on purpose: a room gone grey in both eyes for a minute could as well be a faint; "my left one"
    // and "one" (a headache) name nothing — each would need a reading that fires on everyday words.
    // (Letters to the children written "so it's all sorted for them after I'm gone" now fire: letters
    // written so that things are sorted, or for after one is gone, are a final act.)
    const known = new Set([
      "sudden_loss_of_vision: for a minute the whole room went grey like an old photo, both eyes, then it came back, I'm 71, never had that before",
      "testicular_torsion: sorry this is embarrassing",
      "thunderclap_headache: I'm not a headache person, ever",
    ]);
    expect(missedStatements("development-v6")).toEqual(known);
  });

  it("the seventh development part (development-v7.json, typed or spoken under stress): no near-miss fires any flag, and every statement fires its flag but four, named with why", () => {
    // Left on purpose: the last wee's time and the time now in separate turns (a reading would need the
    // clock); both eyes greying for a minute (a faint is told so too); a headache that is only "it"; a
    // rope in the garage and a will sorted are also what people who are not at risk say.
    const known = new Set([
      "sepsis_in_a_child: last wee was 7am",
      "sudden_loss_of_vision: both eyes went at once, just grey, for a minute or two then came back, I'm scared",
      "thunderclap_headache: yes, it went from zero to 10 out of 10 in the time it takes to blink, nothing like it ever before",
      "suicidal_thoughts: yeah I've been feeling low",
    ]);
    expect(missedStatements("development-v7")).toEqual(known);
  });

  it("the eighth development part (development-v8.json, unusual words, bystanders, self-corrections): no near-miss fires any flag, and every statement fires its flag", () => {
    expect(missedStatements("development-v8")).toEqual(new Set());
  });

  it("the ninth development part (development-v9.json, second-language and older speakers): no near-miss fires any flag, and every statement fires its flag but two, named with why", () => {
    // Left on purpose: wet "in the chair" with nothing said of the water, and a seat "numb when I sit on
    // it", are what a long sit does to anyone (the part's own near-miss has a bottom asleep at long
    // prayers); a sudden worst pain with vomiting whose only head word is "migraines" in another turn
    // ("this is not one") must not fire the headache flag (a twisted testicle or a kidney stone is told
    // so too, as in development-v4).
    const known = new Set([
      "saddle_numbness_or_sphincter_change: I've had sciatica down the right leg for a week, I'm 78 so I expected a bit of that",
      "thunderclap_headache: I get migraines sometimes, I know them",
    ]);
    expect(missedStatements("development-v9")).toEqual(known);
  });

  it("the tenth development part (development-v10.json, rarer presentations): no near-miss fires any flag, and every statement fires its flag but six, named with why", () => {
    // Left on purpose: an arm that "just flopped" and came back after five minutes, told with no word of
    // sudden onset or of the time (a passing weakness, but "just" and "flopped" are everyday); a testicle
    // named only as "down there, one side", as the "willy area" (a sore willy is also a urine infection)
    // or as a "stone" (a kidney stone's word); a will updated and "I think it's time", and a rope in the
    // garage with "a way out", each told in words that people not at risk use too — only a clinician's
    // reading of the whole story can tell.
    const known = new Set([
      "stroke_signs: my arm just flopped off the steering wheel at the lights and I couldn't lift it for about 5 minutes, it's back now but I feel weird. should I just see the GP Monday?",
      "testicular_torsion: my son is 11, bad belly ache since 6am and he's been sick",
      "testicular_torsion: son is 9 and says his tummy and his willy area hurt, he's curled up and won't let me look, started suddenly at dinner",
      "testicular_torsion: grandson is 12 and staying with us, he got a sudden pain in his right stone and now he's crying and white as a sheet",
      "suicidal_thoughts: I've updated my will and sorted the passwords for my wife, I'm 34, and I've started to think it's time",
      "suicidal_thoughts: the debt's too much",
    ]);
    expect(missedStatements("development-v10")).toEqual(known);
  });

  it("the eleventh development part (development-v11.json, long, muddled or minimised messages): no near-miss fires any flag, and every statement fires its flag but one, named with why", () => {
    // Left on purpose: the pregnancy is told in a sentence that is also about a cat gone missing, and a
    // sentence about a pet is not read as the patient's own (a pet's illness told so must not fire);
    // reading each clause of such a sentence apart would hear "the dog's vomiting blood, and is floppy"
    // as the patient's.
    const known = new Set([
      "ectopic_pregnancy: Long story short I moved house last week, my cat went missing for 3 days, and I found out I'm pregnant (about 6 weeks). Today I've had awful stabbing pain on the left low in my pelvis and felt like I was going to pass out on the bus. Probably just stress from the move",
    ]);
    expect(missedStatements("development-v11")).toEqual(known);
  });

  it("the twelfth development part (development-v12.json, telegraphic, bystanders, English from outside the UK): no near-miss fires any flag, and every statement fires its flag but four, named with why", () => {
    // Left on purpose: a testicle named only as "down below, one side" (as in development-v5, "down
    // there" is also a woman's or a bladder's word); a fever said only as a bare "39" (also an age or a
    // count); "I'm done" with letters in the glovebox, and a "goodbye" posted with a boy not answering —
    // each in words that people not at risk use too, so only a clinician's reading of the story can tell.
    const known = new Set([
      "testicular_torsion: grandson 13 staying over",
      "fever_headache_stiff_neck: eish 39, neck stiff, the kitchen light is stabbing my eyes, bad headache",
      "suicidal_thoughts: ya I'm done",
      "suicidal_thoughts: coach - athlete 16 posted 'goodbye' on insta",
    ]);
    expect(missedStatements("development-v12")).toEqual(known);
  });

  it("the thirteenth development part (development-v13.json, images and stories, carers of people with dementia, a learning disability, autism or deafness): no near-miss fires any flag, and every statement fires its flag but thirty-two, named with why", () => {
    // Left on purpose, by kind: a feature told only as an image with no body word the rules can hold
    // ("sex feels like it's happening to someone else", "a line round my bottom", "the world's gone
    // missing on this side", "a hot marble rolling", "a rubber glove full of sand");
    // a change from a person's own normal told by a carer ("won't spin or flap", "can only say 'yes yes
    // yes'", "signing went sloppy", "mixing up his set phrases", "keeps missing his Lego") — the words are
    // everyday without that person's baseline; a testicle not named; a sign
    // whose only word is also everyday ("hiding her tablets" is also what people with dementia do, "made
    // my peace", "going to heaven to see Mum", "gave it to me"); a sepsis told by colour and stillness
    // with no temperature or with a child's age the rules do not read as young; red or black in the loo
    // explained away by a simile ("like melted liquorice" reads as liquorice eaten). Each could only be
    // caught by a pattern that also fires on everyday speech, or by one shaped to the sentence. (The loo
    // "like someone spilt a bottle of red wine in" it now fires: development-v16's "like someone poured a
    // glass of red wine in the pan" is the same lay image of a lot of blood. A "willy bag" is now read as
    // the scrotum it names, and a skewer "with every breath in" as a pleuritic pain, from development-v17
    // and -v18. The pan that "looked like a crime scene" now fires: development-v19 and -v20 told a lot of
    // blood in the loo with the same image, read only when no beetroot, borscht, dye or wine is said.)
    const known = new Set([
      "saddle_numbness_or_sphincter_change: Dad has dementia but he's always known when he needs the toilet. Since he fell backwards onto the step on Tuesday he's soaking through his pads and when I washed him he didn't even flinch at the cold flannel between his legs",
      "saddle_numbness_or_sphincter_change: Lower back agony for a week and now sex feels like it's happening to someone else, nothing down there at all, and weeing is like pushing through a blocked straw",
      "saddle_numbness_or_sphincter_change: Back has been killing me since the weekend and now it's like someone drew a line round my bottom and everything inside it went numb - I can't feel myself poo",
      "sepsis_in_a_child: I'm a foster carer. Our 4-year-old is autistic and never stops moving - tonight he's lying on the sofa staring, won't spin or flap, doesn't even react when I put his tablet on, and he's 39.8",
      "sepsis_in_a_child: my son is 6 weeks old and won't feed",
      "sepsis_in_a_child: Childminder here: one of my little ones, 14 months, was hot this morning and has now gone grey like dishwater, cold hands, hardly crying. Mum's on her way",
      "sepsis_in_a_child: My son is 11 and has a learning disability, normally loud and cheery",
      "stroke_signs: It's like my right hand has been swapped for a rubber glove full of sand - went suddenly at ten past three and my wife says my lip's drooping",
      "stroke_signs: Neighbour's husband came to the fence just now",
      "stroke_signs: I support a man who is deaf and signs BSL. This morning his signing went sloppy on one side - his right hand just sort of hangs - and his face doesn't move on that side when he smiles",
      "stroke_signs: Autistic son, 30, uses set phrases he's had for years - an hour ago he started mixing them up like a shuffled deck, and he keeps missing his mouth with his cup on the right side",
      "stroke_signs: I'm a carer for Mary, 92, very deaf",
      "sudden_loss_of_vision: Mum has dementia and can't tell us much, but since lunch she's bumping into everything on her right and feeling for her cup like she's in the dark",
      "sudden_loss_of_vision: Woke up and my left eye is like looking through a frosted bathroom window, completely cloudy, it was perfect last night - no pain",
      "sudden_loss_of_vision: My autistic daughter (16) keeps covering her right eye and saying 'the world's gone missing on this side' - started at breakfast, never done that before",
      "sudden_loss_of_vision: Support worker: Tom has a learning disability and is always first to grab his Lego. Today he keeps missing it, rubbing his left eye, and when I cover his right eye he can't find my hand at all. Fine at breakfast",
      "pulmonary_embolism: Carer here. Jim has a learning disability and has been in bed since his hip op",
      "pulmonary_embolism: Fine yesterday, today I feel like I'm drowning on dry land - sudden, sitting still. I'm six months pregnant and my left calf has been sore for two days",
      "ectopic_pregnancy: Positive test five days ago. Pain in my shoulder that makes no sense, like a coat hanger pushing into it, and my tummy feels full and sore",
      "testicular_torsion: My boyfriend's 19",
      "anaphylaxis: Feel like I'm breathing through a wet sponge, my eyes have swollen shut and I'm covered in hives like nettle stings - started a new antibiotic an hour ago",
      "anaphylaxis: Lips like two sausages, tongue thick, can hardly swallow my own spit, came on ten minutes after my mate's pesto pasta",
      "anaphylaxis: Allergic to peanuts and had a bite of my friend's Thai curry",
      "gastrointestinal_bleeding: Been taking naproxen for my frozen shoulder for a month",
      "fever_headache_stiff_neck: Teenage daughter feverish and vomiting, says her neck hurts like someone's nailed it in place, and she's confused about what day it is",
      "thunderclap_headache: Like someone cracked an egg on my head and it's pouring down my neck - came in a flash, now my neck's stiff and I'm being sick",
      "thunderclap_headache: My deaf sister signed to me",
      "thunderclap_headache: Like being clubbed from behind with a baseball bat - nobody's there, it just started in a second, I'm 45 and never get headaches",
      "diabetic_ketoacidosis: Our 9 year old's been emptying the squash bottle and we've had three wet beds this month, she's gone skinny",
      "diabetic_ketoacidosis: Teen's been thirsty and peeing constantly, dropped a stone",
      "suicidal_thoughts: I feel like a burden",
      "suicidal_thoughts: Carer: my client with a learning disability keeps saying 'I want to go to heaven to see Mum' and she's been hiding her tablets",
    ]);
    expect(missedStatements("development-v13")).toEqual(known);
  });

  it("the fourteenth development part (development-v14.json, pregnancy, blood thinners, insulin, chemotherapy, operations; health-anxious and well-informed patients): no near-miss fires any flag, and every statement fires its flag but eighteen, named with why", () => {
    // Left on purpose, by kind: the circumstance carries the risk but the rules read symptoms, not
    // circumstances (a fever on chemotherapy, a child of 11 or 15 told by a temperature and cold feet,
    // an SGLT2 tablet with a normal-looking sugar, a missed dose of steroids with jaw
    // pain and a dimmed eye, a red eye after a cataract operation, drops at the optician's); clinical
    // words the rules do not hold and that are rare in lay speech ("cap refill", "6+2", "shoulder tip
    // pain" said by a midwife with "one-sided pelvic pain"); an explanation said and then denied ("I know
    // iron tablets make your poo black, but I'm not on iron") — the explanation still reads; a bladder
    // farewell messages ("nice knowing us", "say goodbye to someone") and "I've decided" with doses
    // "stashed" — words people not at risk also use. (A hand that "can't grip it" now fires, from
    // development-v17's kettle; and a bladder full to bursting nine days after a discectomy, since a
    // discectomy, a known disc prolapse or a spinal stenosis now reads as the back's trouble, from
    // development-v20.)
    const known = new Set([
      "saddle_numbness_or_sphincter_change: Plasterer, bad back for a fortnight from humping plasterboard, GP gave me naproxen.",
      "sepsis_in_a_child: My son's on chemo for leukaemia, his temperature is 38.4 and he's shivering and pale. The ward told us to always ring with a temp but I feel like I'm bothering them.",
      "sepsis_in_a_child: Got my grandson (2) while his mum's in hospital. Last wet nappy was at breakfast, it's 9pm now, he's sleepy and hard to rouse and breathing fast. I'm 74 and don't drive.",
      "sepsis_in_a_child: Our 11 year old is normally sporty, today he's too weak to stand, temp 39.5, feet cold, heart racing, and he says his legs ache more than anything.",
      "sepsis_in_a_child: My daughter's 15 and caught the flu bug off her brother, she's been in bed since yesterday.",
      "sepsis_in_a_child: Children's nurse myself but it's different when it's your own: my 18 month old has a fever, his cap refill is over 3 seconds, he's breathing fast and he won't engage with me at all.",
      "sudden_loss_of_vision: Severe pain in my eye, it's red, there are rainbow rings round the lights and my vision's misty. I'd had drops to widen my pupils at the optician's this afternoon.",
      "chest_pain_with_breathlessness_or_sweating: I drink heavily and I've been on a binge, but this isn't heartburn, the pain is squeezing and going through to my back, I'm short of breath and sweating.",
      "chest_pain_with_breathlessness_or_sweating: Mum's 80 and lives alone, she rang to say she's got indigestion she can't shift, but she's breathless on the phone and says she's sweaty and her arm aches.",
      "ectopic_pregnancy: Think I'm miscarrying, bleeding at 6 weeks with cramps.",
      "ectopic_pregnancy: Midwife, worried about myself: 6+2, one-sided pelvic pain, spotting, and shoulder tip pain since lunchtime. I know what it could be.",
      "testicular_torsion: My 8 year old woke me crying that it hurts in his willy bag, one side's gone red and puffy and he won't walk.",
      "anaphylaxis: Wasp got me on the neck while I was pruning, I'm 72 and on my own, my face is ballooning, hives everywhere and the room's spinning.",
      "gastrointestinal_bleeding: I know iron tablets make your poo black, but I'm not on iron, and mine's tar-like and shiny and I'm breathless and weak which I wasn't yesterday.",
      "diabetic_ketoacidosis: My GP started me on one of the SGLT2 tablets. Now I'm throwing up, panting and feel dreadful, the meter says sugar 11 which I thought was fine, but the ketone strip's gone the darkest colour.",
      "suicidal_thoughts: I know the Samaritans number. I've no intention of ringing it. I just wanted to say goodbye to someone.",
      "suicidal_thoughts: Dad's 70, on his own since the divorce. He gave me his watch and said I'll need it when he's gone, and he's stopped eating.",
      "suicidal_thoughts: Colleague sent the team chat a message at 2am.",
    ]);
    expect(missedStatements("development-v14")).toEqual(known);
  });

  it("the fifteenth development part (development-v15.json, the commonest phrasings, many lay words for each core feature): no near-miss fires any flag, and every statement fires its flag but five, named with why", () => {
    // Left on purpose: a bowel accident asked about as "can a bad back make you poo yourself?" and then
    // told only as "it's happened", with numbness of the "cheeks" (also the face's); a child's sepsis told
    // by confusion with a fever (fever with confusion fires instead; sepsis in a child does not read an
    // age); a testicle not named ("he pointed between his legs", "my left one", as development-v5 and
    // -v6); a fever told only as "hot" in a list ("Daughter's 11, hot, sicking up") — each would need a
    // reading that also fires on everyday words.
    const known = new Set([
      "saddle_numbness_or_sphincter_change: Can a bad back make you poo yourself? It's happened twice today at the shop and sitting on the till stool my cheeks feel like cardboard.",
      "sepsis_in_a_child: My 5 year old has chickenpox.",
      "testicular_torsion: 12 year old's been sick three times with pain low in his tummy, and when I asked he pointed between his legs.",
      "testicular_torsion: Had short bursts of pain in my left one over the last few weeks that went away on their own.",
      "fever_headache_stiff_neck: Daughter's 11, hot, sicking up, headache, and she keeps screwing her eyes up because the bedside lamp is too bright for her.",
    ]);
    expect(missedStatements("development-v15")).toEqual(known);
  });

  it("the sixteenth development part (development-v16.json, patients who play the emergency down or tell it in pieces): no near-miss fires any flag, and every statement fires its flag", () => {
    // Its first look caught 158/196 with 13 near-misses firing; each miss became a lay wording other
    // patients use too (see the negative controls below), each near-miss a guard for an everyday twin.
    expect(missedStatements("development-v16")).toEqual(new Set());
  });

  it("the seventeenth development part (development-v17.json, the feature told by what the person can no longer do or what others notice): no near-miss fires any flag, and every statement fires its flag but one, named with why", () => {
    // Its first look caught 157/196 with 12 near-misses firing. Left on purpose: a sudden worst headache
    // whose only head word is "migraines" in the turn before ("this is different"), as development-v9's —
    // a twisted testicle or a kidney stone is told so too, so "it" after a word for migraines must not be
    // read as a headache.
    const known = new Set(["thunderclap_headache: I've been having migraines for years, so I know what they're like."]);
    expect(missedStatements("development-v17")).toEqual(known);
  });

  it("the eighteenth development part (development-v18.json, voice-to-text and quick typing): no near-miss fires any flag, and every statement fires its flag but one, named with why", () => {
    // Its first look caught 144/196 with 7 near-misses firing. Left on purpose: a plan told only as
    // "I've picked the place" and "I'm going once it's dark", with envelopes left for the family and
    // "tired of everything" — each is also said of a restaurant, an evening out, Christmas cards and a
    // long week; only the whole message says it, and a rule for these words would fire on those.
    const known = new Set(["suicidal_thoughts: so so tired of everything"]);
    expect(missedStatements("development-v18")).toEqual(known);
  });

  it("the nineteenth development part (development-v19.json, an ordinary day on a triage line, often a question or a hedge): no near-miss fires any flag, and every statement fires its flag but four, named with why", () => {
    // Its first look caught 132/196 with 6 near-misses firing. Left on purpose: fever with confusion in a
    // girl of 10 and in a man of 74 (fever_with_confusion fires on both instead: read as child sepsis or
    // meningitis too, it named an 84-year-old's urinary delirium "sepsis in a child" in the real texts, and
    // the rules read no age); a wife's fever, headache and nonsense told in a sentence that names a dog
    // (a sentence naming a pet is read as about the pet, and only that sentence's words say she has none);
    // a sudden pleuritic pain with a pounding heart and no breathlessness (a sudden pain on breathing in
    // alone is also a stitch or a pulled muscle).
    const known = new Set([
      "sepsis_in_a_child: My girl is 10, she's had flu-ish symptoms all day.",
      "pulmonary_embolism: Pleurisy type pain in my left side, worse on a deep breath, and my heart is pounding, came on this morning suddenly",
      "fever_headache_stiff_neck: My dad is 74, been feverish since yesterday, and now he's muddled, doesn't know what day it is",
      "fever_headache_stiff_neck: My wife has a high temp, terrible head, and she's talking nonsense, keeps asking where the dog is, we don't have a dog",
    ]);
    expect(missedStatements("development-v19")).toEqual(known);
  });

  it("the twentieth development part (development-v20.json, someone else telling what they see, and online forms with context and measurements): no near-miss fires any flag, and every statement fires its flag but three, named with why", () => {
    // Its first look caught 139/196 with 4 near-misses firing. Left on purpose: a toddler "warm at
    // drop-off" who can't be roused properly ("warm" is also a child in a coat or a warm room, and a child
    // hard to rouse reads as sepsis only with a fever, a colour or a rash); half a monitor gone (half a
    // screen gone black is also a broken screen); a swollen, painful calf after a drive "to Cornwall and
    // back" (a drive not said to be long is no clot risk, and a calf alone is not this flag's emergency).
    const known = new Set([
      "sepsis_in_a_child: Nursery calling about a boy aged 2. He was warm at drop-off, he's now asleep in the book corner and we can't rouse him properly, he just moans and his eyes close again.",
      "sudden_loss_of_vision: A colleague was at her desk when she said the left half of her monitor had disappeared, and the left half of my face too when she turned to look at me.",
      "pulmonary_embolism: For a week my calf has been swollen and painful, tight, with the veins standing out more than usual, and it hurts to walk. I'm 52 and drove to Cornwall and back the weekend before.",
    ]);
    expect(missedStatements("development-v20")).toEqual(known);
  });

  it("covers every flag the issue names, each with at least 10 statements and 10 near-misses in all", () => {
    const development = part("development").flags;
    const test = part("test").flags;
    for (const id of Object.keys(development).filter((id) => id !== "everyday")) {
      expect(rules.flags.some((flag) => flag.id === id && flag.stated && flag.source)).toBe(true);
      expect(development[id]!.fires.length + test[id]!.fires.length).toBeGreaterThanOrEqual(10);
      expect(development[id]!.nearMisses.length + test[id]!.nearMisses.length).toBeGreaterThanOrEqual(10);
    }
    expect(Object.keys(development)).toHaveLength(15);
  });
});

describe("reading signs in the patient's words", () => {
  it("hears a question said back and answered with a bare 'no' as not the patient's words (negative controls)", () => {
    expect(fired("blood in my vomit? no, no blood, only the yellow water, I had the stomach flu")).toEqual([]);
    expect(fired("blood in my vomit? yes, a lot of it")).toEqual(["gastrointestinal_bleeding"]);
    // A "no" that goes on to deny something else answers nothing.
    expect(fired("my vision went completely blurred out in one eye all of a sudden? no pain, just gone")).toEqual([
      "sudden_loss_of_vision",
    ]);
  });

  it("hears a weak, high-pitched or different cry with a fever as a child's sepsis; not a cry for milk (negative controls)", () => {
    expect(fired("my son has fever and he is crying a different cry, very high, like a cat")).toEqual([
      "sepsis_in_a_child",
    ]);
    expect(fired("she's 8 months, 38.5 and a weak high-pitched cry")).toEqual(["sepsis_in_a_child"]);
    expect(fired("the baby has a fever and is crying for milk")).toEqual([]);
    expect(fired("he is crying a different cry since the new teeth, no fever")).toEqual([]);
  });

  it("hears a correction: one that takes the words back, and one that says them after all (negative controls)", () => {
    expect(fired("my testicle's swollen, well not swollen, there's a little pea at the top")).toEqual([]);
    expect(fired("my testicle's swollen and it came on suddenly")).toEqual(["testicular_torsion"]);
    expect(fired("worst headache ever, well not ever, it's my usual tension one")).toEqual([]);
    expect(fired("worst headache ever, came on in seconds")).toEqual(["thunderclap_headache"]);
    expect(fired("it's not sore, well it is, it's agony actually, my left nut, came on out of nowhere")).toEqual([
      "testicular_torsion",
    ]);
    expect(fired("it's not sore, my left nut, it came on out of nowhere but it's fine")).toEqual([]);
    // A correction upwards inside the words takes nothing back.
    expect(fired("my poo's a bit dark, well not dark, black, black as a hockey puck")).toEqual([
      "gastrointestinal_bleeding",
    ]);
  });

  it("hears pain spreading to the arm or jaw with sweating as a heart attack, the chest unnamed; not pain to the back (negative controls)", () => {
    expect(fired("yes the pain goes into my left arm and I'm wringing wet with sweat")).toEqual([
      "chest_pain_with_breathlessness_or_sweating",
    ]);
    expect(fired(["had what I took for heartburn", "now it's spreading to my jaw and I'm clammy"])).toEqual([
      "chest_pain_with_breathlessness_or_sweating",
    ]);
    // A kidney stone's pain goes round to the back, with sweating and sickness.
    expect(fired("the pain goes round to my back and I'm sweating and being sick")).toEqual([]);
    expect(fired("the pain goes into my left arm when I lift weights")).toEqual([]);
  });

  it("hears a reason that takes a sign back: glasses sat on, beetroot, a new brace (negative controls)", () => {
    expect(fired(["I can't see a thing", "I've sat on my glasses, can you make the text bigger please"])).toEqual([]);
    expect(fired(["I can't see a thing out of my left eye", "it went dark an hour ago"])).toEqual([
      "sudden_loss_of_vision",
    ]);
    expect(fired(["I brought up something bright red", "then I remembered the beetroot soup"])).toEqual([]);
    expect(fired(["I brought up something bright red", "then I remembered the red wine"])).toEqual([
      "gastrointestinal_bleeding",
    ]);
    expect(fired(["my mouth feels a bit lopsided", "it's the new brace, the orthodontist fitted it"])).toEqual([]);
    expect(fired(["my mouth feels a bit lopsided", "it started an hour ago"])).toEqual(["stroke_signs"]);
  });

  it("hears a relative speaking with 'they', 'their' and 'themselves' as with 'he' and 'she' (negative controls)", () => {
    expect(fired("they wet themselves and their back is agony")).toEqual(["saddle_numbness_or_sphincter_change"]);
    expect(fired("they've been looking up ways to end their life")).toEqual(["suicidal_thoughts"]);
    expect(fired("my partner says everyone would be better off without them")).toEqual(["suicidal_thoughts"]);
    expect(fired("their balls are killing them suddenly and one side is swollen")).toEqual(["testicular_torsion"]);
    expect(fired("half of their vision has disappeared since this morning")).toEqual(["sudden_loss_of_vision"]);
    expect(fired("they wet themselves laughing")).toEqual([]);
    expect(fired("their back is stiff after the move")).toEqual([]);
    expect(fired("they've been looking up ways to end their lease early")).toEqual([]);
  });

  it("hears words typed without apostrophes or misspelt as they are often typed (negative controls)", () => {
    expect(fired("my visions gone in one eye")).toEqual(["sudden_loss_of_vision"]);
    expect(fired("my heads pounding, Ive got a feaver and the light hurts my eyes")).toEqual([
      "fever_headache_stiff_neck",
    ]);
    expect(fired("im preggers and have sharp pain low on the right side")).toEqual(["ectopic_pregnancy"]);
    expect(fired("I took her temprature, its 39 and she's floppy")).toEqual(["sepsis_in_a_child"]);
    expect(fired("it hurts when i breath in and I coughed up blood")).toContain("pulmonary_embolism");
    expect(fired("my vision is fine, I just need new glasses")).toEqual([]);
    expect(fired("heads up, my back is killing me")).toEqual([]);
    expect(fired("I'm not preggers, the test was negative")).toEqual([]);
  });

  it("hears breathing that suddenly got bad, and a painful breath with a swollen calf, as a clot in the lung (negative controls)", () => {
    expect(
      fired("my breathing suddenly got bad and I've got a pain under my ribs that's worse when i breathe in"),
    ).toEqual(["pulmonary_embolism"]);
    expect(fired("I can't get any air in since the long flight")).toEqual(["pulmonary_embolism"]);
    // A pleuritic pain and a swollen, tender calf: the signs of a clot in the leg with those of one in the lung.
    expect(fired("it hurts every time I breathe and my calf is swollen")).toEqual(["pulmonary_embolism"]);
    expect(fired("my breathing got better after the inhaler")).toEqual([]);
    expect(fired("my breathing is fine, it's just a cough")).toEqual([]);
    expect(fired("my calf is swollen after the football")).toEqual([]);
    // A negation between the calf and its swelling takes it back.
    expect(fired("my calf isn't swollen but I'm a bit short of breath")).toEqual([]);
    expect(fired("my calf is swollen and I'm a bit short of breath")).toEqual(["pulmonary_embolism"]);
    expect(fired("I've got a stitch when I breathe deeply after running")).toEqual([]);
  });

  it("hears a testicle that aches or throbs, with sickness or since this morning, as a torsion (negative controls)", () => {
    expect(fired("my son's testicle is throbbing and he's been sick")).toEqual(["testicular_torsion"]);
    expect(fired("my left ball aches since this morning")).toEqual(["testicular_torsion"]);
    expect(fired("my testicle aches a bit after cycling, on and off for years")).toEqual([]);
    expect(fired("I've had an ache in my left testicle on and off for months")).toEqual([]);
  });

  it("hears more lay ways of telling a cauda equina, a stroke or a lost eye's sight (negative controls)", () => {
    expect(fired("sciatica in both legs and my bladder's not working properly")).toEqual([
      "saddle_numbness_or_sphincter_change",
    ]);
    expect(fired("bad back and now I've had an accident, wet the bed without knowing")).toEqual([
      "saddle_numbness_or_sphincter_change",
    ]);
    expect(fired("I suddenly can't move my right side")).toEqual(["stroke_signs"]);
    expect(fired("all of a sudden I couldn't feel my left arm or leg")).toEqual(["stroke_signs"]);
    expect(fired("my eyesight went suddenly in one eye")).toEqual(["sudden_loss_of_vision"]);
    expect(fired("my vision suddenly went blurry in one eye")).toEqual(["sudden_loss_of_vision"]);
    expect(fired("my son wet the bed last night")).toEqual([]);
    expect(fired("my bladder is fine and my bowels are working")).toEqual([]);
    expect(fired("I've got a bad back from gardening")).toEqual([]);
    expect(fired("I can't feel my fingers in the cold")).toEqual([]);
    expect(fired("my eyesight has gone downhill over the years")).toEqual([]);
    expect(fired("my eyesight went a bit funny after staring at the screen")).toEqual([]);
    expect(fired("my vision went back to normal after a minute")).toEqual([]);
  });

  it("hears a clot after an operation, a positive test with one-sided pain, a heavy bleed, an exploding head (negative controls)", () => {
    // Coughing blood with a risk of clots (NG158's Wells items): the clot flag as well as the coughing-blood one.
    expect(fired("I've just had an operation and now I'm coughing blood")).toContain("pulmonary_embolism");
    expect(fired("I did a test and it was positive, now I have a sharp pain in my pelvis on the left")).toEqual([
      "ectopic_pregnancy",
    ]);
    expect(fired("there's a lot of blood when I poo and I feel dizzy")).toEqual(["gastrointestinal_bleeding"]);
    expect(fired("my head suddenly exploded with pain")).toEqual(["thunderclap_headache"]);
    expect(fired("I've just had an operation on my knee and it's healing well")).toEqual([]);
    expect(fired("I had a pregnancy test and it was positive, we're so happy")).toEqual([]);
    expect(fired("a bit of blood on the paper when I poo, I think it's piles")).toEqual([]);
    expect(fired("my head is exploding with all this work")).toEqual([]);
  });

  it("hears more ways of not wanting to be alive, and not 'dying my hair' or 'taking all my tablets in the morning'", () => {
    for (const said of [
      "I've had enough of life",
      "I think about dying all the time",
      "I'm going to take all my pills tonight",
      "there's no point living anymore",
    ])
      expect(fired(said), said).toEqual(["suicidal_thoughts"]);
    for (const said of [
      "I take all my tablets in the morning",
      "I'm thinking about dying my hair red",
      "there's no point going on holiday this year",
      "there's no point in going on about it",
      "I'm tired of living with this eczema",
    ])
      expect(fired(said), said).toEqual([]);
  });

  it("hears a relative's back by name, urine not passed all day, a dark patch over the sight, a testicle high up (negative controls)", () => {
    expect(fired("my husbands back is bad and he says he cant pee")).toEqual(["saddle_numbness_or_sphincter_change"]);
    expect(fired("my lower back hurts and I've not had a wee all day even though I need one")).toEqual([
      "saddle_numbness_or_sphincter_change",
    ]);
    expect(fired("theres a dark patch blocking my vision in my left eye")).toEqual(["sudden_loss_of_vision"]);
    expect(fired("half my vision is missing in one eye")).toEqual(["sudden_loss_of_vision"]);
    expect(fired("its like a weight on my chest and my left arm is tingling")).toEqual([
      "chest_pain_with_breathlessness_or_sweating",
    ]);
    expect(fired("since my c-section I've been really breathless")).toEqual(["pulmonary_embolism"]);
    expect(fired("one of my balls is really high up and hurts")).toEqual(["testicular_torsion"]);
    expect(fired("mum's been sick and there was blood in it")).toEqual(["gastrointestinal_bleeding"]);
    expect(fired("she's really hot, has a bad head and the light is hurting her eyes")).toEqual([
      "fever_headache_stiff_neck",
    ]);
    expect(fired("my dad's back is stiff in the mornings")).toEqual([]);
    expect(fired("I haven't had a wee since lunch, I've been busy")).toEqual([]);
    expect(fired("I get a dark patch of skin near my eye")).toEqual([]);
    expect(fired("the light is hurting my eyes after the cinema")).toEqual([]);
    expect(fired("my chest is sore from coughing and I was sick once")).toEqual([]);
  });

  it("hears a plan to end it, not going on, life not worth it (negative controls: a relationship, a holiday, a night shift)", () => {
    for (const said of [
      "my friend says he is going to end it",
      "I don't think I can go on anymore",
      "life isn't worth it anymore",
      "I want to go to sleep forever",
    ])
      expect(fired(said), said).toEqual(["suicidal_thoughts"]);
    for (const said of [
      "I'm going to end it with my boyfriend",
      "I don't think I can go on holiday this year",
      "I could sleep forever after that night shift",
      "life isn't worth worrying about",
    ])
      expect(fired(said), said).toEqual([]);
  });

  it("does not hear an emergency in everyday words: how to do a task, notes for a trip, eyes that dim with age", () => {
    expect(fired("the nurse showed me how to do it")).toEqual([]);
    expect(fired("I've written notes for my family for when I'm gone on holiday")).toEqual([]);
    expect(fired("I wrote notes for the babysitter just in case")).toEqual([]);
    expect(fired("my eyes are going dim with age")).toEqual([]);
    // Positive controls: the same words where they do tell the emergency.
    expect(fired("I feel like a burden and I've thought about how I'd do it")).toEqual(["suicidal_thoughts"]);
    expect(fired("I've written letters for my family for when I'm gone")).toEqual(["suicidal_thoughts"]);
    expect(fired("I've written letters to my kids, just in case")).toEqual(["suicidal_thoughts"]);
    expect(fired("my vision went dark in one eye an hour ago")).toEqual(["sudden_loss_of_vision"]);
  });

  it("hears the second-language and rarer words of development-v9 and -v10, and not their everyday twins (negative controls)", () => {
    expect(fired("I look at the clock and the middle of the clock is not there")).toEqual(["sudden_loss_of_vision"]);
    expect(fired("the middle of the screen is blank, I think the phone is broken")).toEqual([]);
    expect(fired("she has a fever and she is not holding her head anymore")).toEqual(["sepsis_in_a_child"]);
    expect(fired("she's not holding her head up, she's only 4 weeks")).toEqual([]);
    expect(fired("his mouth has turned and his speech is not clear")).toEqual(["stroke_signs"]);
    expect(fired("his face is twisted in agony from the kidney stone")).toEqual([]);
    expect(fired("my calf is swollen since the flight and when I breathe deep I am out of air")).toEqual([
      "pulmonary_embolism",
    ]);
    expect(fired("the tyre suddenly went out of air")).toEqual([]);
    expect(fired("I'm delayed two weeks and have a sharp pain on the right side, spotting")).toEqual([
      "ectopic_pregnancy",
    ]);
    expect(fired("I'm late two days with the rent and my lower left tummy hurts")).toEqual([]);
    expect(fired("I'm type 1 and my breathing is big heavy gasps, the meter says HI")).toEqual([
      "diabetic_ketoacidosis",
    ]);
    expect(fired("I'm type 1, breathing heavily after climbing the stairs")).toEqual([]);
    expect(fired("my toddler talks but says the wrong words")).toEqual([]);
    expect(fired("my throat is hot like fire and my neck is stiff")).toEqual([]);
    expect(fired("my brother is hot like fire and his neck doesn't bend forward")).toEqual([
      "fever_headache_stiff_neck",
    ]);
    // Diabetes in pregnancy with raised ketones (NICE NG3): ketoacidosis comes at lower sugars.
    expect(fired("pregnant and type 1, sick for 12 hours, glucose 15, ketones 2.5")).toEqual(["diabetic_ketoacidosis"]);
    expect(fired("I'm pregnant and type 1, ketones 0.4, sugar 9, feel fine")).toEqual([]);
    expect(fired("I'm type 1 and pregnant, checked ketones 2 days ago, all fine")).toEqual([]);
    expect(fired("my motion is dark, no, not dark, black, really black and shiny")).toEqual([
      "gastrointestinal_bleeding",
    ]);
    expect(fired("my motion is dark, no, not black, just dark green from spinach")).toEqual([]);
    expect(fired("my back aches and my bladder has packed up trying, I go every hour")).toEqual([]);
    expect(fired("I didn't know what day it was after the night shift, fever and headache")).toEqual([]);
    expect(fired("my toddler is spiking a temp and is saying weird things in her sleep")).toEqual([]);
    expect(fired("I wouldn't mind if I didn't wake up to the alarm tomorrow, so tired")).toEqual([]);
    expect(fired("is there a quick way to go to the station")).toEqual([]);
    expect(fired("my search history is full of painless ways to go")).toEqual(["suicidal_thoughts"]);
    expect(fired("grandad is up all night weeing, he drinks tea at bedtime, and he's vomiting with a bug")).toEqual([]);
  });

  it("fires on lay words across turns, and a negation or a hedge takes a sign back (negative controls)", () => {
    expect(fired(["I've had bad back pain all week", "and now I can't wee"])).toContain(
      "saddle_numbness_or_sphincter_change",
    );
    expect(fired("I've had bad back pain all week")).toEqual([]);
    expect(fired("She has a temperature and a rash that doesn't fade under a glass")).toContain("sepsis_in_a_child");
    expect(fired("She has a rash that fades under a glass and no temperature")).toEqual([]);
    expect(fired("No, I haven't had blood in my stool or black stools.")).toEqual([]);
    expect(fired("I nearly passed out but didn't, and I'm fit and healthy")).toEqual([]);
  });

  it("hears the muddled, telegraphic and bystanders' words of development-v11 and -v12, and not their everyday twins (negative controls)", () => {
    expect(fired("this hay fever is killing me, sorry for moaning")).toEqual([]);
    expect(fired("I coughed up blood this morning")).toEqual(["coughing_blood"]);
    expect(
      fired(["I coughed up blood this morning", "it was from a nosebleed going down the back of my throat"]),
    ).toEqual([]);
    expect(fired("I had suicidal thoughts years ago, I'm in a good place now")).toEqual([]);
    expect(fired("I had suicidal thoughts years ago and they're back")).toEqual(["suicidal_thoughts"]);
    expect(fired("numb down there after spin class, gone 10 min after I got off the bike")).toEqual([]);
    expect(fired("numb down there since this morning")).toEqual(["saddle_numbness_or_sphincter_change"]);
    expect(fired("I've taken all my tablets today as prescribed")).toEqual([]);
    expect(fired("I've taken all my tablets, the whole box")).toEqual(["suicidal_thoughts"]);
    expect(fired("my smile's lopsided, always has been since I was a kid")).toEqual([]);
    expect(fired("her smile's gone lopsided since lunch")).toEqual(["stroke_signs"]);
    expect(fired("my head got hit by the cupboard door, pain for a minute")).toEqual([]);
    expect(fired("out of nowhere my head got struck, pain maxed out instantly")).toEqual(["thunderclap_headache"]);
    expect(fired("my contact lens has gone up under my eyelid and I can't see properly out of that eye")).toEqual([]);
    expect(fired("I can't see properly out of my left eye since lunch")).toEqual(["sudden_loss_of_vision"]);
    expect(fired("she's gone pale grey and we can't wake her")).toEqual(["sepsis_in_a_child"]);
    for (const said of [
      "my teenager looks at me like I'm speaking Chinese",
      "I'm breathless when I run, I had a c-section 10 years ago",
      "I've taken all my tablets but still feel sick",
      "my left eye's like looking through frosted glass, cataract op next month",
      "I'm so pale and hard to wake in the mornings",
      "pregnant, neck pain going into my shoulder",
      "looked up ways to go to Leeds",
    ])
      expect(fired(said), said).toEqual([]);
  });

  it("reads a spaced dash as a clause break, so a negation before it does not reach past it (negative control: a negation after the dash still takes back)", () => {
    const dash = "It's like a football to the groin but nothing hit me - sudden swelling and pain in my right testicle";
    expect(rules.signs.read(dash).get("sudden")).toBe("sudden");
    expect(fired(dash)).toEqual(["testicular_torsion"]);
    expect(rules.signs.read("my right testicle aches - nothing sudden, it's been weeks").has("sudden")).toBe(false);
    expect(rules.signs.read("nothing sudden about it, a well-known ache").has("sudden")).toBe(false);
  });

  it("hears the image and circumstance words of development-v13 and -v14, and not their everyday twins (negative controls)", () => {
    expect(fired("bending my neck forward is impossible, I'm burning up with a temperature")).toEqual([
      "fever_headache_stiff_neck",
    ]);
    expect(fired("like a vice on my breastbone and I'm sweating")).toEqual([
      "chest_pain_with_breathlessness_or_sweating",
    ]);
    expect(fired("I've planned it for Friday when the house is empty")).toEqual(["suicidal_thoughts"]);
    for (const said of [
      "type 1 with a cough, I'm checking ketones every 4 hours",
      "GP asked if I had any thoughts of suicide and I said no",
      "self-harm scars from when I was 15, asking about laser",
      "worried I'm having a stroke because my eyelid twitches",
      "my speech has been slowly getting more slurred over a couple of years with Parkinson's",
      "my face has dropped on one side, it's the filler I had done yesterday",
      "a rash on my toddler with a fever, it fades when I press a glass on it",
      "that film ending blew my mind, like a bomb going off in my head",
      "pain low on the right and my period's late, did a test, negative",
      "out of breath since my op last month but it's getting better every week",
      "had a spinal anaesthetic this morning and can't feel my legs yet",
      "I take all my tablets in the morning",
      "we planned it for Friday, the surprise party",
      "I'm wearing sunglasses in the car, the sun is bright",
    ])
      expect(fired(said), said).toEqual([]);
  });

  it("hears the common lay words of development-v15, and not their everyday twins (negative controls)", () => {
    for (const [said, flag] of [
      ["I have to push and push to start a wee and my back went on Monday", "saddle_numbness_or_sphincter_change"],
      [
        "my little one's burning hot and there are purple dots that stay when I roll a glass over them",
        "sepsis_in_a_child",
      ],
      ["his cheek is sagging on one side since this morning", "stroke_signs"],
      ["there's a smudge in my eye I can't blink away", "sudden_loss_of_vision"],
      ["there's a tight band round her ribs and she's puffing", "chest_pain_with_breathlessness_or_sweating"],
      ["got a BFP last week and now a pain on my left and brown bleeding", "ectopic_pregnancy"],
      ["my throat feels like it's shutting and I can't get my breath", "anaphylaxis"],
      ["I tried to nod and my neck just won't go, temperature's 39", "fever_headache_stiff_neck"],
      ["I've never had a headache like it, it came on suddenly", "thunderclap_headache"],
    ] as const)
      expect(fired(said), said).toContain(flag);
    for (const said of [
      "after a long bike ride my bits go tingly, fine by teatime",
      "slurring after the darts night, right as rain now",
      "a rash and a fever, the spots go pale under the glass",
      "my bum's frozen from sitting on the bleachers",
      "my grandad's cheeks are saggy",
      "I can't see my hand in front of my face in this fog",
      "my dad was pale and wet through after the rain, his chest hurts from coughing",
      "he said his head had burst with ideas",
      "we sorted out her funeral plans last year, she's 90 and well",
      "sick 3 times today with a tummy bug",
      "I'm gasping for a drink after the gym",
      "my chest is tight, I've got asthma and I ate a prawn sandwich",
      "my phone's off and I sent my mum a message saying sorry for being late",
      "we went down on the floor to play with the baby",
    ])
      expect(fired(said), said).toEqual([]);
    expect(fired(["the nappy was dry at lunchtime", "just had a massive wet one now, no temperature"])).toEqual([]);
    expect(fired(["my vision went in one eye", "my contact had slipped, seeing fine now"])).toEqual([]);
    expect(fired(["my face feels weird on one side", "it's a cold sore coming, my lip's tingly"])).toEqual([]);
  });

  it("hears the played-down and piecemeal words of development-v16, and not their everyday twins (negative controls)", () => {
    for (const [said, flag] of [
      [
        "my back's been awful since wednesday and I haven't managed a wee since breakfast",
        "saddle_numbness_or_sphincter_change",
      ],
      ["I think I've lost the feeling in my fanny", "saddle_numbness_or_sphincter_change"],
      ["he just lies on the sofa and he's got a high temp", "sepsis_in_a_child"],
      [
        "she's asleep and I can barely rouse her, there's a rash that stays when I roll a glass over it",
        "sepsis_in_a_child",
      ],
      ["I couldn't say the word 'spoon' just now", "stroke_signs"],
      ["now the outer edge of what I see is smudged dark", "sudden_loss_of_vision"],
      ["my left arm aches and feels heavy and I'm clammy", "chest_pain_with_breathlessness_or_sweating"],
      ["my sugars are 28 and I've been sick", "diabetic_ketoacidosis"],
      [
        "she sent me a message thanking me for everything and saying sorry, and now her phone's off",
        "suicidal_thoughts",
      ],
    ] as const)
      expect(fired(said), said).toContain(flag);
    for (const said of [
      "a cold sore on my bottom lip, tingling since yesterday, and my back's sore",
      "I've a fanny pack full of snacks and my back's killing me, I haven't managed to go to the gym",
      "my little girl had a temperature and was floppy last night, she's back to her usual self now",
      "my mum's speech is slurred and she's had four glasses of wine at the party",
      "my face went numb in the cold wind, it went once I warmed up",
      "my vision went black for a second when I stood up",
      "I lost the sight in my left eye years ago, it's been like that since 2010",
      "my testicle hurt when I caught it in my zip, pain's mild",
      "he says 'I want to die' when he loses at the game",
      "I've got the worst headache ever, it's been building since I woke up, it's a hangover",
      "my left arm aches after my flu jab and I'm a bit sweaty",
      "can't say the word 'squirrel' when I'm tired",
      "my friend sent me a message thanking me for everything after the party and now her phone's off",
      "her fingers went blue from the cold at the pool",
    ])
      expect(fired(said), said).toEqual([]);
    // One or two drinks do not explain slurred speech; several do, said in another sentence.
    expect(fired(["dad slurred his words just now", "he's had one beer"])).toEqual(["stroke_signs"]);
    expect(fired(["dad slurred his words just now", "he's had four pints"])).toEqual([]);
  });

  it("hears the can-no-longer and dictated words of development-v17 and -v18, and not their everyday twins (negative controls)", () => {
    for (const [said, flag] of [
      ["my nan wishes she could disappear for good", "suicidal_thoughts"],
      ["I've been holding back my sleeping tablets for a month", "suicidal_thoughts"],
      ["how much paracetamol would be enough, I keep wondering", "suicidal_thoughts"],
      ["he texted me thanks for everything and now he's not picking up", "suicidal_thoughts"],
      ["went for a number 2 and it was black sticky stuff", "gastrointestinal_bleeding"],
      ["she's vomiting and its coming up dark red", "gastrointestinal_bleeding"],
      ["his left hand keeps letting go of things since lunch", "stroke_signs"],
      ["she's talking like her tongue is too big", "stroke_signs"],
      ["pain in my right test tickle since I woke up", "testicular_torsion"],
      ["had a new knee last week and I'm gasping for breath", "pulmonary_embolism"],
      ["3 weeks overdue and a sharp pain low on my right", "ectopic_pregnancy"],
      ["mum's got a weight behind her boobs and she's sweating", "chest_pain_with_breathlessness_or_sweating"],
      ["my 4 year old has a temp of 39 and his hands are white and cold", "sepsis_in_a_child"],
      ["got a fever and moving my neck hurts", "fever_headache_stiff_neck"],
      ["drinking loads and weeing every hour, now I'm vomiting", "diabetic_ketoacidosis"],
      ["stung by a wasp, her lips are swelling and she has a squeaky breath", "anaphylaxis"],
      ["my left eye just sees black since lunch", "sudden_loss_of_vision"],
      ["my back's killing me and I wet myself and didn't notice", "saddle_numbness_or_sphincter_change"],
    ] as const)
      expect(fired(said), said).toContain(flag);
    for (const said of [
      "I wish I could disappear for a week on holiday",
      "I've been holding back my blood pressure tablets because they make me dizzy",
      "how much paracetamol would be enough for a 5 year old?",
      "she's got a plan to end it with her boyfriend",
      "he texted me thanks for everything after the party and now he's not picking up",
      "I picture myself jumping for joy when I retire",
      "black sticky stuff round the toilet seal, is it mould?",
      "she went floppy giggling when we tickled her, she has a temp",
      "my face is numb round my lip after a filling this morning",
      "my words are coming out all wrong, so tired, up all night with the baby",
      "he gave me a lopsided grin",
      "coughed up phlegm, no blood",
      "I'm out of breath after the long flight but fine now",
      "worried I have lung cancer, a bit breathless on the hills",
      "my balls are swollen and sore 3 days after my vasectomy",
      "my son says his willy area hurts when he wees and he's been sick",
      "my library books are 3 weeks overdue and I've a sharp pain low on my right",
      "the pink stomach medicine turned my poo black",
      "my throat feels tight when I'm anxious",
      "my son is moaning a bit but he's normal, temp of 38",
    ])
      expect(fired(said), said).toEqual([]);
    // A limb gone dead from being sat on comes back with tingling; a hedged "maybe I slept on it?" explains nothing.
    expect(
      fired(["couldn't feel my legs this morning", "I'd been sitting cross-legged, they came back with tingling"]),
    ).toEqual([]);
    expect(fired(["woke from a nap and my right arm and leg are numb", "maybe I just slept on it?"])).toEqual([
      "stroke_signs",
    ]);
  });

  it("hears the everyday triage and bystanders' words of development-v19 and -v20, and not their everyday twins (negative controls)", () => {
    for (const [said, flag] of [
      ["my bum's gone numb and it doesn't go away when I stand up", "saddle_numbness_or_sphincter_change"],
      ["no feeling at all when I wipe since my back went", "saddle_numbness_or_sphincter_change"],
      ["he opened his bowels in the chair without knowing and his back's agony", "saddle_numbness_or_sphincter_change"],
      ["her head's lolling and she's burning up", "sepsis_in_a_child"],
      ["purple pinpricks on his legs and he's hot and vomiting", "sepsis_in_a_child"],
      ["I can only smile with one side of my mouth since lunch", "stroke_signs"],
      ["he opens his mouth and nothing comes out, started ten minutes ago", "stroke_signs"],
      ["dad's stone cold sober but slurring his words", "stroke_signs"],
      ["the sight in my right eye went to a grey fog an hour ago", "sudden_loss_of_vision"],
      ["a dark wedge across the edge of my left eye since breakfast", "sudden_loss_of_vision"],
      ["brought up something like ketchup and I haven't eaten any", "gastrointestinal_bleeding"],
      ["the toilet looks like a crime scene after every poo and I'm dizzy", "gastrointestinal_bleeding"],
      ["I'm on rivaroxaban and passing dark red blood from my bottom", "gastrointestinal_bleeding"],
      ["a strap tightening round my chest and I'm drenched in sweat", "chest_pain_with_breathlessness_or_sweating"],
      ["my lips and tongue have swollen up and there's a rasping noise when I breathe in", "anaphylaxis"],
      ["a pain hit the back of my head and was at its peak within a minute", "thunderclap_headache"],
      ["type 1, dozing off mid-sentence and breathing in big gulps", "diabetic_ketoacidosis"],
      ["I keep wishing I could just not wake up", "suicidal_thoughts"],
      ["she's been cutting her arms and hiding it", "suicidal_thoughts"],
      ["my son's scrotum has gone dusky purple on one side", "testicular_torsion"],
      ["positive test yesterday and a pain by my right hip that makes me woozy", "ectopic_pregnancy"],
      ["on chemo and my calf is swollen and tender", "pulmonary_embolism"],
    ] as const)
      expect(fired(said), said).toContain(flag);
    for (const said of [
      "my bum goes numb on long drives but it's fine as soon as I get out",
      "my backside was numb on the church pew, gone as soon as I stood up",
      "a lisp since I got my tongue pierced",
      "had a filling this morning and I'm talking funny and dribbling",
      "PE after school left him wheezy, his inhaler helped within minutes",
      "he said he'd kill himself if his team got relegated",
      "woke up and couldn't see out of my eye, false alarm, it was just sleep in it",
      "had the door slammed in my face and now I'm out of breath",
      "a lightbulb went off in my head",
      "my anxiety is off the scale",
      "I wish I could just not wake up for work tomorrow",
      "planning which bridge to walk across on holiday",
      "we had beetroot soup and the loo looks like a crime scene",
      "on apixaban and a bit of blood on the paper from piles",
      "I'm on metformin for PCOS and being sick",
      "I might be expecting a delivery today and my side hurts",
      "a heart rate monitor band round my chest and I'm sweaty",
      "a photo of a rope swing at the lake",
      "my toddler opens his mouth and nothing comes out when he's shy",
    ])
      expect(fired(said), said).toEqual([]);
    // A scare taken back in the next turn: "false alarm, it was just gunk".
    expect(
      fired(["woke up and couldn't see out of my left eye", "false alarm, it was just gunk, washed it and it's clear"]),
    ).toEqual([]);
    expect(fired(["woke up and couldn't see out of my left eye", "it's not a false alarm, still dark"])).toEqual([
      "sudden_loss_of_vision",
    ]);
  });

  it("reads 'can't ... without' as saying the thing is there (negative control: 'without' alone still takes back)", () => {
    const pregnant = "I'm 6 weeks pregnant";
    expect(fired([pregnant, "I can't walk to the shop without a stabbing pain low on my left"])).toEqual([
      "ectopic_pregnancy",
    ]);
    expect(fired([pregnant, "I walked to the shop without a stabbing pain low on my left"])).toEqual([]);
  });

  it("reads 'from nothing to' as where a pain started, not as a negation (negative control: 'nothing' alone still takes back)", () => {
    const severe = "a headache that went from nothing to the worst pain of my life in about 10 seconds";
    expect(rules.signs.read(severe).get("severe")).toBe("worst");
    expect(fired(severe)).toEqual(["thunderclap_headache"]);
    expect(rules.signs.read("a headache, nothing like the worst pain of my life").has("severe")).toBe(false);
    expect(rules.signs.read("it was not the worst pain, just dull").has("severe")).toBe(false);
  });

  it("hears indirect statements of not wanting to be alive, said with a negation of their own (found in use, not in the corpus)", () => {
    for (const said of [
      "I don't see the point in going on anymore",
      "i keep thinking everyone would be happier if i was gone",
      "life feels pointless and I'd rather just disappear for good",
      "honestly life isn't worth living",
    ])
      expect(fired(said), said).toEqual(["suicidal_thoughts"]);
    for (const said of [
      "I don't see the point in going to the GP for this",
      "I wish this rash would disappear for good",
      "it would be better if he was gone by the weekend, the cold I mean",
      "my life is worth living again now the pain has gone",
    ])
      expect(fired(said), said).toEqual([]);
  });

  it("hears when a symptom began apart from how fast: 'since this morning' is not a sudden onset", () => {
    // Breathlessness since this morning is not the sudden breathlessness of a clot in the lung…
    expect(fired("I've been short of breath since this morning")).toEqual([]);
    expect(fired("I suddenly got short of breath")).toEqual(["pulmonary_embolism"]);
    expect(fired("I've had crushing chest pain since this morning and I'm short of breath.")).toEqual([
      "chest_pain_with_breathlessness_or_sweating",
    ]);
    // …but new weakness of a limb, or a testicle's pain that woke him, need no more than a recent start.
    expect(fired("I can't lift my right arm since this morning")).toEqual(["stroke_signs"]);
    expect(fired("I can't lift my right arm since the stroke I had in 2019")).toEqual([]);
    expect(fired("the pain in his left testicle woke him up")).toEqual(["testicular_torsion"]);
    expect(fired("I've had an ache in my left testicle on and off for months")).toEqual([]);
  });
  it("hears numbness down below that passes with a drive or a flight as a seat's (found in use, not in the corpus)", () => {
    for (const said of [
      "I get numb bum after long drives",
      "my bottom goes numb on long flights but it's fine once I walk about",
    ])
      expect(fired(said), said).toEqual([]);
    // Negative control: numbness down below with nothing to explain it is still a cauda equina.
    expect(fired("I've gone numb around my bum and my back is agony")).toEqual(["saddle_numbness_or_sphincter_change"]);
  });
  it("hears no lost sight in 'lost sight of' or a vision board, nor a dry nappy followed by wet ones (found in use, not in the corpus)", () => {
    for (const said of [
      "I lost my vision board at work, ha",
      "I've lost sight of what matters lately",
      "the baby's nappy was bone dry this morning but she's had three wet ones since",
    ])
      expect(fired(said), said).toEqual([]);
    // Negative controls: sight lost of an eye, and a dry nappy in a floppy, hot baby.
    expect(fired("I lost the sight of my left eye this morning")).toEqual(["sudden_loss_of_vision"]);
    expect(fired("her nappy has been dry since this morning and she's floppy and hot")).toEqual(["sepsis_in_a_child"]);
  });
  it("sets aside the learned model's suicidal reading of words with nothing of ending one's life (found in use, not in the corpus)", () => {
    expect(
      rules.learnedSetAside(
        "suicidal_thoughts",
        "I've been vomiting since last night, I think it's the norovirus going round work",
      ),
    ).toBe(true);
    // Negative controls: indirect statements keep the model's reading.
    for (const said of [
      "so so tired of everything",
      "I've left envelopes for mum on the hall table",
      "I can't see a way out",
    ])
      expect(rules.learnedSetAside("suicidal_thoughts", said), said).toBe(false);
  });
  it("hears a child hot since yesterday, a grey colour, a side of the mouth that won't move and an arm just hanging (development-v26), and not their everyday twins", () => {
    for (const [said, flag] of [
      ["my boy is 2, hot since last night and now I can hardly wake him", "sepsis_in_a_child"],
      ["she's 18 months, poorly and hot all afternoon and she's gone floppy", "sepsis_in_a_child"],
      ["my 3 year old has a temperature, she's very drowsy and she's a grey colour", "sepsis_in_a_child"],
      ["the right side of her mouth won't move since breakfast", "stroke_signs"],
      ["twenty minutes ago it started: his right arm is just hanging down", "stroke_signs"],
    ] as const)
      expect(fired(said), said).toContain(flag);
    for (const said of [
      "it's been hot all day and he's grumpy, he's drinking well and playing",
      "the flat has been hot since Monday and the baby has a heat rash that fades under a glass",
      "his hair has gone grey early, like his dad's",
      "his arm is hanging in a sling since he broke his wrist last week",
      "my left arm was hanging off the bed when I woke and it had pins and needles for a minute",
    ])
      expect(fired(said), said).toEqual([]);
  });
  it("hears black specks brought up, a pan gone red, a neck that don't bend, a head that pounds and a testicle swelled (development-v26), and not their everyday twins", () => {
    for (const [said, flag] of [
      [
        ["she's on blood thinners", "she brought up a mug of dark brown sick with black specks in it"],
        "gastrointestinal_bleeding",
      ],
      ["I keep going to the loo and the whole pan goes red every time", "gastrointestinal_bleeding"],
      ["he has hot body since morning, bad headache and his neck don't bend", "fever_headache_stiff_neck"],
      ["all of a sudden my head started to pound, the worst pain of my life, and I was sick", "thunderclap_headache"],
      ["my son is 14, his testicle suddenly hurts and it has swelled up", "testicular_torsion"],
    ] as const)
      expect(fired(said), JSON.stringify(said)).toContain(flag);
    for (const said of [
      "I brought up my dinner, there were black specks in it from the blueberries and poppy seed cake",
      "after the beetroot salad the whole pan went red when I weed",
      "hot body after the sauna and my neck aches from the gym",
      "my head pounds after a night on the wine, it built up slowly over the morning",
      "his ankle swelled up after football, no pain anywhere else",
    ])
      expect(fired(said), said).toEqual([]);
  });
  it("hears no drop of wee, wee not felt and skin round the bottom not one's own with back pain, and the sight in one eye gone (development-v26), and not their everyday twins", () => {
    for (const [said, flag] of [
      [
        ["his back went lifting the wardrobe", "he hasn't managed a drop of wee since lunch"],
        "saddle_numbness_or_sphincter_change",
      ],
      ["my back is agony and when I do a wee I can't feel it at all", "saddle_numbness_or_sphincter_change"],
      ["the skin round my bum doesn't feel like my own since my back went", "saddle_numbness_or_sphincter_change"],
      ["ten minutes ago the sight in my left eye just went", "sudden_loss_of_vision"],
    ] as const)
      expect(fired(said), JSON.stringify(said)).toContain(flag);
    for (const said of [
      "I haven't managed a drop of wine since January, feeling great",
      "my back aches and when I do a wee it stings a bit",
      "the sight in my left eye went blurry slowly over a year, the optician says cataract",
      "after the filler the skin round my lips feels like it's not mine for an hour",
    ])
      expect(fired(said), said).toEqual([]);
  });
  it("sets aside the learned model's ketoacidosis in a turn that says there is no diabetes, unless it tells what ketoacidosis does (development-v26)", () => {
    for (const said of [
      "I'm vomiting with a bug from the kids and I'm not diabetic",
      "he doesn't have diabetes, he's just been sick all night after a kebab",
    ])
      expect(rules.learnedSetAside("diabetic_ketoacidosis", said), said).toBe(true);
    // Negative controls: no diabetes known, but the thirst, the weeing, the ketones or the breathing of it.
    for (const said of [
      "I'm not diabetic but I've been so thirsty and weeing constantly, now I'm vomiting",
      "she's not a diabetic as far as we know but her ketones are high and she's breathing fast and deep",
      "I'm vomiting and I'm a type 1 diabetic",
    ])
      expect(rules.learnedSetAside("diabetic_ketoacidosis", said), said).toBe(false);
  });
  it("hears no stroke in gibberish talked in one's sleep (found in use, not in the corpus)", () => {
    expect(fired("my partner says I talk gibberish in my sleep")).toEqual([]);
    expect(fired("he was talking gibberish while asleep on the sofa")).toEqual([]);
    // Negative control: gibberish awake is still a stroke's speech.
    expect(fired("she's talking gibberish and can't lift her arm")).toEqual(["stroke_signs"]);
  });
  it("hears no emergency in a headache told as over with none since, nor in 'if I ever felt suicidal' (found in use, not in the corpus)", () => {
    for (const said of [
      "last year I had a really bad headache that came on suddenly, they said it was a migraine, none since",
      "if I ever felt suicidal I'd call someone, but I'm fine",
    ])
      expect(fired(said), said).toEqual([]);
    // Negative controls: a sudden worst headache now, and suicidal thoughts said outright.
    expect(fired("I got a sudden headache, the worst of my life, an hour ago")).toEqual(["thunderclap_headache"]);
    expect(fired("I've been feeling suicidal this week")).toEqual(["suicidal_thoughts"]);
  });
  it("hears the words of development-v24, and not their everyday twins (negative controls)", () => {
    for (const [said, flag] of [
      [
        "Mum, 74, sat on the edge of the bed saying it feels like a sack of potatoes is on her breastbone and she can't get enough air in",
        "chest_pain_with_breathlessness_or_sweating",
      ],
      [
        "my test at the chemist showed I am carrying, the right side of my belly is paining me and blood is coming",
        "ectopic_pregnancy",
      ],
      ["two mouthfuls of a curry and my lips feel like they're inflating and my throat's narrowing", "anaphylaxis"],
      ["I lie down at night and beg Him to take me in my sleep", "suicidal_thoughts"],
      ["she texted me 'this is the last time you'll hear from me'", "suicidal_thoughts"],
      ["Mi feel seh nobody woulda miss mi if mi gone", "suicidal_thoughts"],
      ["her temperature is 39 and she's floppy", "sepsis_in_a_child"],
    ] as const)
      expect(fired(said), said).toContain(flag);
    for (const said of [
      "Our 14 year old is draped across the beanbag like a wet noodle, normal temperature, he was on Fortnite till 3",
      "Morning after a wedding, too much prosecco, head pounding and sunglasses on indoors, temperature normal",
      "Got completely tongue-tied in my presentation today, kept mixing my words up, so embarrassing",
      "Been to the dentist, half my face is numb and my lip is drooping, how long will it take to wear off?",
      "Swollen face after wisdom tooth removal 2 days ago, dentist said to expect it",
      "Faded white lines on my forearms from self-harming at school, I'm 30 and happy now",
      "my mum asked me to take me to the shops",
      "I blew up the lilo for the kids and my face went red",
      "your prescription tablets are ready for collection at the pharmacy",
      "I'm carrying a lot of shopping and my back hurts",
    ])
      expect(fired(said), said).toEqual([]);
    expect(fired(["coach from Glasgow, nine hours", "by the time we got off my backside was completely numb"])).toEqual(
      [],
    );
    expect(fired(["I get a tight chest with a cold", "with wheezing, my inhaler helps"])).toEqual([]);
    // The same words with what makes them an emergency still fire.
    expect(fired(["drove nine hours and my back seized", "now I can't feel the seat under my cheeks"])).toEqual([
      "saddle_numbness_or_sphincter_change",
    ]);
    expect(fired(["I get a tight chest, my inhaler helps", "but now it's crushing and going down my arm"])).toContain(
      "chest_pain_with_breathlessness_or_sweating",
    );
    expect(fired("the left side of my face feels like I've been to the dentist and my arm is weak")).toContain(
      "stroke_signs",
    );
  });
  it("hears the words of development-v25, and not their everyday twins (negative controls)", () => {
    for (const [said, flag] of [
      ["my baby has a temperature and the soft spot on his head is bulging", "fever_headache_stiff_neck"],
      ["my 15 year old is forever at the tap and the toilet and now he keeps being sick", "diabetic_ketoacidosis"],
    ] as const)
      expect(fired(said), said).toContain(flag);
    for (const said of [
      "had two fillings and my tongue is numb so I'm talking funny",
      "granny is going blind from macular degeneration, it's been slow",
      "a small streak of blood in my sick after being sick lots with a bug, fine since",
      "after her swimming lesson my daughter's fingers look bluey and she shivers, back to pink once she's wrapped up",
      "a catch in my chest on a deep breath since the chest infection, easing every day",
    ])
      expect(fired(said), said).toEqual([]);
    // The same words with what makes them an emergency still fire.
    expect(fired("had two fillings this morning and now my arm is weak and my face droops")).toContain("stroke_signs");
    expect(fired("I have glaucoma and a black curtain suddenly came down over my left eye")).toContain(
      "sudden_loss_of_vision",
    );
    expect(fired("vomiting blood, a lot of it, and I feel faint")).toContain("gastrointestinal_bleeding");
    expect(fired("my 2 year old has a high temperature and her lips are blue and she's floppy")).toContain(
      "sepsis_in_a_child",
    );
  });
  it("hears the words of development-v26, and not their everyday twins (negative controls)", () => {
    for (const [said, flag] of [
      [["my daughter was born 5 weeks ago", "she's hot, 38.4 on the thermometer"], "sepsis_in_a_child"],
      ["my right eye stopped working an hour ago, I can only see a glow", "sudden_loss_of_vision"],
      [
        "I never track my periods but I don't think I've had one since Easter, and I've a sharp pain low down on the left and feel faint",
        "ectopic_pregnancy",
      ],
      ["this morning there was a big bleed from my back passage and I feel woozy", "gastrointestinal_bleeding"],
      [
        ["I won't need my appointment next week", "it's all sorted, my dog is going to my brother"],
        "suicidal_thoughts",
      ],
      [
        ["he's been giving his golf clubs and his good watch away", "he's left letters for the kids"],
        "suicidal_thoughts",
      ],
      ["my sister keeps saying she will finish herself", "suicidal_thoughts"],
      [
        "a pressing feeling behind my breastbone for half an hour, sweating and short of breath",
        "chest_pain_with_breathlessness_or_sweating",
      ],
      [
        "he's holding his chest, pouring with sweat and can't get his breath",
        "chest_pain_with_breathlessness_or_sweating",
      ],
    ] as const)
      expect(fired(said), JSON.stringify(said)).toContain(flag);
    for (const said of [
      ["my son was born 7 weeks ago", "he's feeding well, no temperature, I just want his check booked"],
      "my eye drops stopped working so my eyes are itchy again",
      "I do keep track of my periods and I had one last week, sharp pain on the left when I run",
      "my piles bleed a tiny bit on the paper from the back passage when I strain",
      ["the cat's going to my sister's while we're on holiday", "I won't need the cattery"],
      "he'll finish himself a sandwich and then go to bed",
      "I can't see out of my left eye, the eyelid is swollen shut from a bite, if I hold it open I can see fine",
      "the nurse was pressing on my chest with the stethoscope and it was cold",
    ] as const)
      expect(fired(said), JSON.stringify(said)).toEqual([]);
  });
  it("hears sight gone smoky or misty in one eye (the learned model, retrained with development-v24, no longer reads 'smoky')", () => {
    expect(fired("my right eye has been red and sore since yesterday and everything looks smoky in it")).toEqual([
      "sudden_loss_of_vision",
    ]);
    // Negative control: a smoky room is no eye.
    expect(fired("everything looks smoky in the kitchen after I burnt the toast")).toEqual([]);
  });
  it("hears no emergency in what is explained or over (found in use, not in the corpus), and still hears it without the explanation", () => {
    for (const said of [
      "I had crushing chest pain once in 2015, it was a panic attack, nothing since",
      "my neck is stiff and I have a temperature, I've got tonsillitis and the glands are swollen",
      "there was a bit of blood when I coughed after the dentist",
      "she went blue around the lips when she was crying hard, then pink again",
      "my partner has a really bad back and wet himself laughing at the telly",
      "I've been vomiting and I have diabetes, my sugars are normal and no ketones",
      "grandpa's words are slurred because he's had a few whiskies at the wedding",
    ])
      expect(fired(said), said).toEqual([]);
    // Negative controls.
    expect(fired("I had chest pain in 2015, nothing since but now it's crushing and I'm sweating")).toContain(
      "chest_pain_with_breathlessness_or_sweating",
    );
    expect(fired("my neck is stiff and I have a temperature of 39")).toContain("fever_headache_stiff_neck");
    expect(fired("she went blue around the lips and is struggling to breathe")).toContain(
      "blue_lips_or_noisy_breathing",
    );
    expect(fired("my back is killing me and I wet myself without noticing")).toContain(
      "saddle_numbness_or_sphincter_change",
    );
    expect(fired("grandpa's words are slurred and his face has dropped")).toContain("stroke_signs");
  });
  it("sets aside the tracked state's reading where the patient's words explain it: normal sugars, blood after the dentist", () => {
    const diabeticVomiting = {
      positive_medical_history: [{ value: "diabetes mellitus" }],
      positive_symptom: [{ value: "vomiting" }],
    };
    const ids = (state: object, said: string) => rules.evaluate(state as never, [said]).map((flag) => flag.id);
    expect(
      ids(diabeticVomiting, "I've been vomiting and I have diabetes, my sugars are normal and no ketones"),
    ).toEqual([]);
    expect(
      ids({ positive_symptom: [{ value: "hemoptysis" }] }, "a bit of blood when I coughed after the dentist"),
    ).toEqual([]);
    // Negative controls: the same state without the explanation.
    expect(ids(diabeticVomiting, "I've been vomiting and I have diabetes")).toContain("diabetic_ketoacidosis");
    expect(ids({ positive_symptom: [{ value: "hemoptysis" }] }, "a bit of blood when I coughed")).toContain(
      "coughing_blood",
    );
  });
  it("hears a testicle sore after a kick, its swelling gone down, as settling, and a swelling getting worse as a torsion", () => {
    const said = "my testicle was sore after a kick in football training yesterday, swelling's gone down today";
    const state = {
      positive_symptom: [
        { value: "pain", location: ["testicle"] },
        { value: "swelling", location: ["testicle"] },
      ],
    };
    expect(fired(said)).toEqual([]);
    expect(rules.evaluate(state as never, [said]).map((flag) => flag.id)).toEqual([]);
    // Negative control: the swelling getting worse, with vomiting.
    expect(fired("his testicle is really swollen and the swelling is getting worse, he's being sick")).toEqual([
      "testicular_torsion",
    ]);
  });
  it("hears a face lower on one side as drooping", () => {
    expect(fired("now I look closely his face is lower on the right")).toContain("stroke_signs");
    // Negative control: a face that is only tired.
    expect(fired("his face looks a bit tired today")).toEqual([]);
  });
  it("hears slurred words put down to a new brace as a lisp, not a stroke", () => {
    expect(fired(["my words are a bit slurred today", "I had braces put on yesterday, keep lisping"])).toEqual([]);
    // Negative control: the slurred words alone.
    expect(fired(["my words are a bit slurred today", "I don't know why"])).toContain("stroke_signs");
  });
  it("hears a child conked out after an activity, awake and chatting, or a named syndrome asked about, as no floppy child", () => {
    expect(
      fired([
        "she's gone floppy",
        "I mean she's zonked after her dance class like she always is, woke up and she's giggling",
      ]),
    ).toEqual([]);
    expect(fired("what is floppy baby syndrome? a friend's baby had tests for it, mine is fine")).toEqual([]);
    // Negative controls: floppy and hot; woken up but not chatting.
    expect(fired("my baby's gone floppy and he's burning hot")).toContain("sepsis_in_a_child");
    expect(fired("he's floppy and hot, woke up for a second but he's not babbling like normal")).toContain(
      "sepsis_in_a_child",
    );
  });
  it("hears the weather's thunderclap as no headache's, unless the headache is severe", () => {
    expect(fired(["it was a thunderclap", "I mean the storm, my head's ached a bit since from the bad night"])).toEqual(
      [],
    );
    // Negative controls: a thunderclap headache; a severe one on a stormy night; a lightning-bolt simile.
    expect(fired("my headache came on like a thunderclap")).toContain("thunderclap_headache");
    expect(fired("during the storm I got a thunderclap headache, the worst pain of my life")).toContain(
      "thunderclap_headache",
    );
    expect(fired("thunderclap pain in my head, like a lightning bolt")).toContain("thunderclap_headache");
  });
  it("hears flecks of blood in phlegm with a cold on the mend as no coughed-up blood", () => {
    expect(fired("a few flecks of blood in my phlegm with a cold, on the mend now")).toEqual([]);
    // Negative control: blood coughed up with nothing to explain it.
    expect(fired("I've been coughing up blood since this morning")).toContain("coughing_blood");
  });
  it("hears a neck that cannot bend, light that hurts the eyes and a temperature in words", () => {
    expect(fired("she's got a fever and a headache and she's not able to bend her neck")).toContain(
      "fever_headache_stiff_neck",
    );
    expect(fired("high fever and a bad headache, the light is hurting his eyes")).toContain(
      "fever_headache_stiff_neck",
    );
    expect(fired("my baby is three weeks old and the thermometer says thirty eight point four")).toContain(
      "sepsis_in_a_child",
    );
    // Negative controls: a neck stiff from the pillow; light in the eyes with no fever; an age in words.
    expect(fired("I've a temperature and can't bend my neck since I slept funny on a new pillow")).toEqual([]);
    expect(fired("the light is hurting my eyes after the screen all day")).toEqual([]);
    expect(fired("my mum is thirty eight years old and has a headache")).toEqual([]);
  });
  it("hears sight that a person is not able to see from as lost", () => {
    expect(fired("since this morning she is not able to see from her right eye")).toContain("sudden_loss_of_vision");
    // Negative control: not able to see the board without glasses.
    expect(fired("he's not able to see the board at school without his glasses")).toEqual([]);
  });
  it("hears words that cannot be found, dribbling from one side of the mouth and an arm flopping by the side as a stroke's", () => {
    expect(fired("since twenty minutes my father cannot find words")).toContain("stroke_signs");
    expect(fired("he's dribbling out of the right side of his mouth")).toContain("stroke_signs");
    expect(fired("she was fine at lunch but now her right arm is dangling by her side")).toContain("stroke_signs");
    // Negative controls: no words for a feeling; a teething baby dribbling.
    expect(fired("I cannot find words to thank the nurses enough")).toEqual([]);
    expect(fired("the baby is dribbling a lot, teething I think")).toEqual([]);
  });
});
