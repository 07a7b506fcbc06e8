/**
 * What a model server's successful (200) JSON answer must hold, endpoint by endpoint (OpenAI chat
 * completions and embeddings, Ollama chat and embed), checked before anything reads it: a proxy's HTML
 * page or another API's JSON becomes one clear {@link MalformedAnswerError} instead of a client
 * library's "Cannot read properties of undefined".
 */
import * as z from "zod";
import { MalformedAnswerError } from "./errors.ts";

/** An embedding sent as base64 (OpenAI's `encoding_format: "base64"`): whole 32-bit floats, at least one. */
function isBase64Floats(value: unknown): boolean {
  if (typeof value !== "string" || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const bytes = Buffer.from(value, "base64").length;
  return bytes > 0 && bytes % 4 === 0;
}

/** A vector of numbers, at least one. */
const vectorSchema = z.array(z.number()).min(1);

/** What one endpoint's answer must hold, what to call it, and what to say when it does not. */
interface AnswerShape {
  readonly endpoint: RegExp;
  readonly what: string;
  readonly schema: z.ZodType;
  readonly problem: string;
}

const ANSWER_SHAPES: readonly AnswerShape[] = [
  {
    endpoint: /\/chat\/completions$/,
    what: "chat completion",
    schema: z.object({ choices: z.array(z.unknown()) }),
    problem: "no 'choices' list",
  },
  {
    endpoint: /\/api\/chat$/,
    what: "chat answer",
    schema: z.object({ message: z.looseObject({}) }),
    problem: "no 'message'",
  },
  {
    endpoint: /\/embeddings$/,
    what: "embeddings answer",
    schema: z.object({
      data: z.array(z.object({ embedding: z.union([vectorSchema, z.string().refine(isBase64Floats)]) })).min(1),
    }),
    problem: "no 'data' list of embeddings",
  },
  {
    endpoint: /\/api\/embed$/,
    what: "embeddings answer",
    schema: z.object({ embeddings: z.array(vectorSchema).min(1) }),
    problem: "no 'embeddings' list of number lists",
  },
];

/** The shape the answer from `path` must have, if its endpoint is one we check. */
export function answerShapeOf(path: string): AnswerShape | undefined {
  return ANSWER_SHAPES.find(({ endpoint }) => endpoint.test(path));
}

/** Text safe to quote in a one-line message. */
export const quote = (text: string) => JSON.stringify(text.replace(/\s+/g, " ").slice(0, 80));

/** The answer's text is not JSON at all. */
export function notJsonError(path: string, contentType: string, text: string): MalformedAnswerError {
  return new MalformedAnswerError(
    `the server answered ${path} with status 200 but not JSON (${contentType || "no content type"}): ${quote(text)}`,
  );
}

/** The answer is JSON, but not what the endpoint's protocol says (`problem`: what is missing or wrong). */
export function notTheProtocolError(path: string, problem: string, text: string): MalformedAnswerError {
  const what = answerShapeOf(path)?.what ?? "answer";
  return new MalformedAnswerError(
    `the server's ${what} from ${path} is not the protocol's: ${problem} in ${quote(text)}`,
  );
}

/** Why the 200 answer `text` from `path` is not the protocol's, or undefined when it is (or is not checked). */
export function malformedAnswer(path: string, contentType: string, text: string): MalformedAnswerError | undefined {
  const shape = answerShapeOf(path);
  if (!shape) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return notJsonError(path, contentType, text);
  }
  return shape.schema.safeParse(body).success ? undefined : notTheProtocolError(path, shape.problem, text);
}
