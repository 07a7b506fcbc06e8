import * as z from "zod";

/**
 * A regular expression written as a string in an ontology file, checked to compile (as the engine
 * compiles it: case-insensitive), so that a bad pattern fails at load with its path, not at first use.
 */
export const regexSourceSchema = z
  .string()
  .min(1)
  .refine(
    (source) => {
      try {
        new RegExp(source, "i");
        return true;
      } catch {
        return false;
      }
    },
    { message: "not a valid regular expression" },
  );
