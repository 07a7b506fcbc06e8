import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bundledPath } from "../../src/foundation/package-paths.ts";
import {
  GENERATED_LINE,
  SMOKE_LABEL,
  fillMeasuredBlocks,
  renderMeasurementsPage,
  sectionsOf,
  type MeasurementSection,
  type MeasurementStamp,
} from "../../test-support/measurements-page.ts";

/** The writer of docs/measurements.md stamps what it writes and refuses figures without a stamp; no benchmark is run here. */
const stamp: MeasurementStamp = {
  date: "2025-01-02T03:04:05.000Z",
  commit: "0123abc",
  cpuCount: 2,
  cpuModel: "Example CPU @ 2.0GHz",
  node: "v20.19.0",
  loadAverage: { before: 0.25, after: 0.5 },
  smoke: false,
};

const section = (name: string, value: string, sectionStamp = stamp): MeasurementSection => ({
  name,
  title: `The ${name} figures`,
  command: `npx tsx bench/${name}.ts --json`,
  stamp: sectionStamp,
  figures: [{ name: "median wall", value }],
});

describe("docs/measurements.md's writer (test-support/measurements-page.ts)", () => {
  it("stamps the page and every section with date, commit, CPUs, Node and load average, and names each section's command", () => {
    const page = renderMeasurementsPage(stamp, [section("startup", "0.500 s")], ["startup"]);
    expect(page).toContain(GENERATED_LINE);
    for (const part of [
      "2025-01-02T03:04:05.000Z",
      "`0123abc`",
      "2 × Example CPU @ 2.0GHz",
      "Node v20.19.0",
      "load average 0.25 before, 0.50 after",
    ]) {
      expect(page.split(part).length - 1).toBe(2); // the page's stamp and the section's
    }
    expect(page).toContain("Command: `npx tsx bench/startup.ts --json`");
    expect(page).toContain("| median wall | 0.500 s |");
    expect(page).not.toContain(SMOKE_LABEL);
  });

  it("refuses to write without a stamp, or with an incomplete one", () => {
    expect(() => renderMeasurementsPage(undefined, [section("startup", "1 s")], ["startup"])).toThrow(/no stamp/);
    expect(() => renderMeasurementsPage({ ...stamp, commit: "" }, [], [])).toThrow(/commit/);
    expect(() =>
      renderMeasurementsPage(
        stamp,
        [section("startup", "1 s", { ...stamp, date: "yesterday", cpuModel: " " })],
        ["startup"],
      ),
    ).toThrow(/date, CPU model/);
    expect(() =>
      renderMeasurementsPage(
        stamp,
        [section("startup", "1 s", { ...stamp, loadAverage: { before: Number.NaN, after: 1 } })],
        ["startup"],
      ),
    ).toThrow(/load average/);
  });

  it("labels a smoke run on the page and in each section, and never mixes smoke and real figures", () => {
    const smoke = { ...stamp, smoke: true };
    const page = renderMeasurementsPage(smoke, [section("startup", "9 s", smoke)], ["startup"]);
    expect(page).toContain(`> **${SMOKE_LABEL}**`);
    expect(sectionsOf(page).get("startup")).toContain(SMOKE_LABEL);
    expect(() => renderMeasurementsPage(stamp, [section("startup", "9 s", smoke)], ["startup"])).toThrow(/smoke/);
    // A real run drops the smoke sections of the page before it.
    expect(renderMeasurementsPage(stamp, [section("embedded", "1 s")], ["startup", "embedded"], page)).not.toContain(
      "9 s",
    );
  });

  it("keeps the sections an --only run did not measure, with their own stamps, in the given order", () => {
    const before = renderMeasurementsPage(
      stamp,
      [section("startup", "0.5 s"), section("embedded", "2 ms")],
      ["startup", "embedded"],
    );
    const later = { ...stamp, date: "2025-02-01T00:00:00.000Z", commit: "fedcba9" };
    const after = renderMeasurementsPage(later, [section("embedded", "3 ms", later)], ["startup", "embedded"], before);
    const sections = sectionsOf(after);
    expect([...sections.keys()]).toEqual(["startup", "embedded"]);
    expect(sections.get("startup")).toContain("0123abc");
    expect(sections.get("embedded")).toContain("fedcba9");
    expect(after).not.toContain("2 ms");
  });

  it("fills the README's measured blocks and refuses a block whose markers are missing", () => {
    const readme = "intro\n<!-- measured:speed -->\nold figure\n<!-- /measured:speed -->\nend\n";
    expect(fillMeasuredBlocks(readme, new Map([["speed", "new figure $1"]]))).toBe(
      "intro\n<!-- measured:speed -->\nnew figure $1\n<!-- /measured:speed -->\nend\n",
    );
    expect(() => fillMeasuredBlocks(readme, new Map([["startup", "x"]]))).toThrow(/no <!-- measured:startup -->/);
  });

  it("docs/measurements.md and the README hold no smoke-run figures", () => {
    for (const file of ["docs/measurements.md", "README.md"])
      expect(readFileSync(bundledPath(...file.split("/")), "utf8")).not.toContain(SMOKE_LABEL);
  });
});
