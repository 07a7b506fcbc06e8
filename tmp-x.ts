import { loadMeditod } from "./src/data/meditod.ts";
import { buildEmbeddedEngine } from "./src/modules/embedded/index.ts";
import { loadCaseLibrary, meditodCases } from "./src/simulator/case-library.ts";
import { playCase, summarise } from "./src/simulator/self-play.ts";
const ds = loadMeditod();
const engine = buildEmbeddedEngine(ds, "train", { wording: "clean" });
const results = [];
for (const c of [...loadCaseLibrary(), ...meditodCases(ds)]) {
  const r = await playCase(engine, c);
  results.push(r);
  console.log(r.id.padEnd(26), r.doctorTurns, r.coverage.toFixed(2), `v ${r.values.asked}/${r.values.total} a ${r.attributes.asked}/${r.attributes.total}`, "rep", r.repeatedQuestions, "flags", r.redFlags.caught.join(",") || "-", "missed", r.redFlags.missed.join(",") || "-", "fa", r.redFlags.falseAlarms.join(",")||"-", "|", r.closing, r.namedDiagnosis, "/", r.expectedDiagnosis);
}
const { closings, ...rest } = summarise(results); console.log(JSON.stringify(rest), JSON.stringify(closings));
