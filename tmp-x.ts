import { loadMeditod } from "./src/data/meditod.ts";
import { Conversation } from "./src/dm/conversation.ts";
import { buildEmbeddedEngine } from "./src/modules/embedded/index.ts";
const engine = buildEmbeddedEngine(loadMeditod(), "train", { wording: "clean" });
for (const opening of ["I've had a headache for three days.", "I have pain in my right flank and a fever.", "It burns when I pee.", "I've had stomach pain since yesterday.", "I've been feeling really down for two months.", "I have an itchy rash on my arms.", "I've had ringing in my ears."]) {
  const c = new Conversation(engine, { maxDoctorTurns: 25 });
  let o = await c.say(opening);
  const asked: string[] = [];
  for (let i = 0; i < 14 && !o.ended; i++) { asked.push(o.doctor!); o = await c.say("Hmm, I'm not sure."); }
  console.log("\n##", opening, JSON.stringify(c.snapshot().state.positive_symptom)); console.log(asked.map(a=>"  - "+a).join("\n"));
}
