import * as z from "zod";

/**
 * Zod's interpreted validation instead of its generated per-schema code: a command validates each
 * file once, so compiling the code first only costs (30 ms of `npm run bench`, and 5–10 % slower on a
 * 210-dialogue MediTOD file). Set for this process only; the library leaves the user's zod as it is.
 * A module of its own, loaded when a command runs: `--help` loads no zod, and a static import lets the
 * bundler keep only what is used of zod (a dynamic `import("zod")` kept all of it, its 64 locales too).
 */
export function validateWithoutCodeGeneration(): void {
  z.config({ jitless: true });
}
