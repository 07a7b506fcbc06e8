import type { SemanticRedFlags } from "../src/clinical/red-flags-semantic.ts";
import express, { type NextFunction, type Request, type Response } from "express";
import type { Duplex } from "node:stream";
import * as z from "zod";
import type { DialogueModules } from "../src/language/module-interfaces.ts";
import type { PatientCase } from "../src/simulator/patient-simulator.ts";
import { describeIssues } from "../src/cmas/schemas.ts";
import { STATUS_NAMES } from "../src/cmas/cmas-names.ts";
import { PRESENT_STATUSES } from "../src/cmas/ontology.ts";
import { BUNDLED } from "../src/foundation/package-paths.ts";
import { clinicalNote } from "../src/clinical/clinical-note.ts";
import { noteToMarkdown } from "../src/clinical/note-markdown.ts";
import { recordLabels } from "../src/clinical/record-labels.ts";
import type { QuestionReader } from "../src/language/question-reader.ts";
import type { TurnOutcome } from "../src/dialogue-manager/conversation.ts";
import { noteInputOf } from "../src/dialogue-manager/note-input.ts";
import { ClientIdentities } from "./client-identity.ts";
import { ClientLimits, type ClientLimitOptions } from "./client-limits.ts";
import { HttpError } from "./http-error.ts";
import { allowedHostNames, guardRequests, securityHeaders } from "./security.ts";
import {
  SessionRegistry,
  type ConversationSession,
  type LiveSession,
  type PracticeSession,
} from "./session-registry.ts";
import type { SessionStore } from "./session-store.ts";
import { SqliteSessionStore } from "./sqlite-session-store.ts";
import { TranscriptWriter } from "./transcripts.ts";

/**
 * The chat server: a person (or the simulated patient) talks to the dialogue system and watches the
 * CMAS profile fill in. Sessions are durable (each turn committed to the store before it is answered,
 * all resumed after a restart); other origins and foreign `Host`s are refused; every request body is
 * validated; every failure is a JSON error with a code; no request can crash the process.
 */

export interface ChatServerOptions {
  readonly modules: DialogueModules;
  /** Simulated-patient cases offered on the page. */
  readonly cases?: readonly PatientCase[];
  /** Where sessions live; default an in-memory SQLite database (gone when the process ends). */
  readonly store?: SessionStore;
  /** Where to export each session's transcript (JSON, replaced atomically after every turn). Nothing is written without it. */
  readonly transcriptsDir?: string;
  /** Sessions held in all (default 1,000). */
  readonly maxSessions?: number;
  /** Sessions idle longer than this are deleted (default 24 hours). */
  readonly idleMinutes?: number;
  readonly limits?: ClientLimitOptions;
  readonly maxDoctorTurns?: number;
  /** Reads a trainee's questions in practice sessions (`role: "doctor"`); practice mode is off without it. */
  readonly questionReader?: QuestionReader;
  /** The bound address (default 127.0.0.1): requests must name it, or a loopback name, in `Host`. */
  readonly host?: string;
  /** More host names the server answers to (a name in /etc/hosts, a reverse proxy's). */
  readonly allowedHosts?: readonly string[];
  /**
   * The red flags' semantic signal, given to every conversation (off without it: the lay-word rules run
   * alone). Its encoder starts loading with the server, in the background; `/api/health` says whether
   * it is off, loading, on or failed, and why.
   */
  readonly semanticRedFlags?: SemanticRedFlags | null;
}

/** What `/api/health` says of the semantic signal when the server was not given one. */
const SEMANTIC_NOT_ENABLED = {
  state: "off",
  model: null,
  reason:
    "not enabled (anamnesis chat turns the learned model on unless --no-learned-red-flags, and --semantic-red-flags adds the statements)",
} as const;

/** A lone UTF-16 surrogate (`"\ud800"` in JSON): not text, and not storable as UTF-8. */
const LONE_SURROGATE = /\p{Cs}/u;
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !LONE_SURROGATE.test(value), "must be valid Unicode text (no lone surrogates)");
const createSessionBody = z.strictObject({
  case: text(100).min(1).optional(),
  role: z.enum(["patient", "doctor"]).optional(),
});
const noteQuery = z.strictObject({ format: z.enum(["json", "markdown"]).default("json") });
const turnBody = z.strictObject({ text: text(2000).pipe(z.string().trim().min(1, "say something")) });

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new HttpError(400, "invalid_request", describeIssues(parsed.error));
  return parsed.data;
}

const PUBLIC_DIR = BUNDLED.serverPublic;
interface ChatContext {
  readonly options: ChatServerOptions;
  readonly registry: SessionRegistry;
  readonly limits: ClientLimits;
  /** Who is asking: a signed client cookie, else the remote address. */
  readonly identities: ClientIdentities;
  readonly cases: ReadonlyMap<string, PatientCase>;
}

/**
 * Runs one turn of a conversation, one at a time per session, committed before it is answered. A
 * retry of a turn the offline engine answered replaces that turn (even a closing one): it is not
 * counted again.
 */
async function runTurn(
  context: ChatContext,
  request: Request,
  response: Response,
  session: ConversationSession,
  kind: "say" | "simulate" | "retry",
  input: string | null,
  turn: () => Promise<TurnOutcome>,
) {
  if (session.busy) throw new HttpError(409, "busy", "the previous turn is still running");
  const before = session.conversation.snapshot();
  const replacing = kind === "retry" && !before.failed;
  if (before.ended && !replacing) throw new HttpError(409, "ended", "this conversation has ended; start a new one");
  const done = context.limits.startTurn(context.identities.clientOf(request, response));
  session.busy = true;
  try {
    const outcome = await turn();
    if (outcome.error === null && !replacing) session.turns += 1;
    if (outcome.error === null) {
      session.lastActions = outcome.actions;
    }
    // The outcome's state is the session's state, already in the view: neither stored nor sent twice.
    const { state: _state, ...stored } = outcome;
    await context.registry.commit(session, { kind, input, outcome: stored });
    return { ...context.registry.view(session), outcome: stored };
  } finally {
    session.busy = false;
    done();
  }
}

function conversationOf(context: ChatContext, request: Request): ConversationSession {
  const session = context.registry.get(String(request.params.id));
  if (session.kind === "practice")
    throw new HttpError(
      409,
      "practice_session",
      "in a practice session you are the doctor: send your questions as turns",
    );
  return session;
}

async function createSession(context: ChatContext, request: Request, response: Response): Promise<LiveSession> {
  const body = parseBody(createSessionBody, request.body);
  if (body.role === "doctor" && body.case === undefined)
    throw new HttpError(400, "invalid_request", "case: a practice session (role doctor) needs a case");
  const patientCase = body.case !== undefined ? context.cases.get(body.case) : undefined;
  if (body.case !== undefined && !patientCase) throw new HttpError(404, "unknown_case", `no case ${body.case}`);
  if (body.role === "doctor" && !context.options.questionReader)
    throw new HttpError(409, "practice_unavailable", "practice mode is not available on this server");
  const client = context.identities.clientOf(request, response);
  context.limits.createSession(client);
  return context.registry.create(client, body.role ?? "patient", patientCase);
}

/** A turn of a practice session: the trainee asks, the simulated patient answers; committed before it is answered. */
async function askInPractice(
  context: ChatContext,
  request: Request,
  response: Response,
  session: PracticeSession,
  text: string,
): Promise<void> {
  if (session.busy) throw new HttpError(409, "busy", "the previous turn is still being saved");
  const done = context.limits.startTurn(context.identities.clientOf(request, response));
  session.busy = true;
  try {
    const { patient, actions } = session.practice.ask(text);
    session.turns += 1;
    await context.registry.commit(session, { kind: "ask", input: text, outcome: { patient, actions } });
    response.json({ ...context.registry.view(session), patient, actions });
  } finally {
    session.busy = false;
    done();
  }
}

/** POST /sessions/:id/turns: the patient says something, or in a practice session the trainee asks. */
async function takeTurn(context: ChatContext, request: Request, response: Response): Promise<void> {
  const session = context.registry.get(String(request.params.id));
  const { text } = parseBody(turnBody, request.body);
  if (session.kind === "practice") return askInPractice(context, request, response, session, text);
  response.json(await runTurn(context, request, response, session, "say", text, () => session.conversation.say(text)));
}

/** POST /sessions/:id/simulate: the simulated patient says its next line. */
async function simulateTurn(context: ChatContext, request: Request, response: Response): Promise<void> {
  const session = conversationOf(context, request);
  if (!session.simulator)
    throw new HttpError(409, "no_case", "this session has no simulated patient; start one with a case");
  const text =
    session.turns === 0 ? session.simulator.openingStatement() : session.simulator.answer(session.lastActions);
  response.json({
    patient: text,
    ...(await runTurn(context, request, response, session, "simulate", text, () => session.conversation.say(text))),
  });
}

/** POST /sessions/:id/retry: a failed turn from the stage that failed, or a turn the offline engine answered re-asked of the configured backend. */
async function retryTurn(context: ChatContext, request: Request, response: Response): Promise<void> {
  const session = conversationOf(context, request);
  if (!session.conversation.snapshot().retryable)
    throw new HttpError(409, "nothing_to_retry", "the last turn neither failed nor was answered by the offline engine");
  response.json(await runTurn(context, request, response, session, "retry", null, () => session.conversation.retry()));
}

/** GET /sessions/:id/note: the clinical note from the tracked state, JSON by default or a Markdown file to download. */
function sendNote(context: ChatContext, request: Request, response: Response): void {
  const session = conversationOf(context, request);
  const { format } = parseBody(noteQuery, request.query);
  const snapshot = session.conversation.snapshot();
  const note = clinicalNote(noteInputOf(snapshot));
  if (format === "json") {
    response.json({ id: session.id, note });
    return;
  }
  response.type("text/markdown; charset=utf-8");
  response.attachment(`anamnesis-note-${session.id}.md`);
  response.send(noteToMarkdown(note, `Clinical note — session ${session.id}`));
}

/** POST /sessions/:id/end: after a red flag (or at any point) the patient may stop the history; the session and its note stay. */
async function endConversation(context: ChatContext, request: Request, response: Response): Promise<void> {
  const session = conversationOf(context, request);
  if (session.busy) throw new HttpError(409, "busy", "the previous turn is still running");
  if (session.conversation.snapshot().ended) throw new HttpError(409, "ended", "this conversation has already ended");
  session.conversation.end();
  await context.registry.commit(session, { kind: "end", input: null, outcome: null });
  response.json(context.registry.view(session));
}

/** DELETE /sessions/:id, once no turn of it is running. */
async function deleteSession(context: ChatContext, request: Request, response: Response): Promise<void> {
  const session = context.registry.get(String(request.params.id));
  if (session.busy) throw new HttpError(409, "busy", "a turn is running; delete the session when it has finished");
  await context.registry.delete(session.id);
  response.status(204).end();
}

/** The JSON API's session routes; additive endpoints go beside these. */
function sessionRoutes(context: ChatContext): express.Router {
  const { registry } = context;
  const router = express.Router();
  router.post("/sessions", async (request, response) => {
    response.status(201).json(registry.view(await createSession(context, request, response)));
  });
  router.get("/sessions/:id", (request, response) => {
    response.json(registry.view(registry.get(String(request.params.id))));
  });
  router.post("/sessions/:id/turns", (request, response) => takeTurn(context, request, response));
  router.post("/sessions/:id/simulate", (request, response) => simulateTurn(context, request, response));
  router.post("/sessions/:id/retry", (request, response) => retryTurn(context, request, response));
  router.get("/sessions/:id/note", (request, response) => sendNote(context, request, response));
  router.post("/sessions/:id/end", (request, response) => endConversation(context, request, response));
  router.delete("/sessions/:id", (request, response) => deleteSession(context, request, response));
  return router;
}

/** Codes for body-parser's errors (they carry a `type`) and other errors that declare a 4xx status. */
const CLIENT_ERROR_CODES: Record<string, string> = {
  "entity.parse.failed": "invalid_json",
  "entity.too.large": "too_large",
  "encoding.unsupported": "unsupported_encoding",
  "charset.unsupported": "unsupported_charset",
  "entity.verify.failed": "invalid_request",
  "request.aborted": "aborted",
  "request.size.invalid": "invalid_request",
};

/** Express 5 forwards rejected async handlers here; body-parser errors arrive with a status and a type. */
function sendError(error: unknown, _request: Request, response: Response, _next: NextFunction): void {
  if (error instanceof HttpError) {
    if (error.retryAfterSeconds !== undefined) response.setHeader("Retry-After", String(error.retryAfterSeconds));
    response.status(error.status).json({ error: { code: error.code, message: error.message } });
    return;
  }
  const { status: declared, type } = error as { status?: unknown; type?: unknown };
  const status = typeof declared === "number" && declared >= 400 && declared < 500 ? declared : 500;
  const code =
    status === 500
      ? "internal"
      : (CLIENT_ERROR_CODES[String(type)] ??
        (status === 413 ? "too_large" : status === 404 ? "not_found" : "bad_request"));
  const message = status === 500 ? "internal error" : (error as Error).message;
  if (status === 500) process.stderr.write(`anamnesis chat: ${(error as Error)?.stack ?? String(error)}\n`);
  if (response.headersSent) return;
  response.status(status).json({ error: { code, message } });
}

/** Requests Node's HTTP parser refuses (oversized headers, garbage) get a JSON error too, then the connection closes. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler does: when a response is already on this connection (the unread rest of a
  // refused request's body parsed as a new request), a second one would be garbage after it — just close.
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const body = JSON.stringify({
    error: {
      code: status === 431 ? "headers_too_large" : "bad_request",
      message: status === 431 ? "request headers too large" : "malformed HTTP request",
    },
  });
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? "Request Header Fields Too Large" : "Bad Request"}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n\r\n${body}`,
  );
}

/** The chat server's Express app and its session registry (resumed from the store). */
export async function createChatApp(
  options: ChatServerOptions,
): Promise<{ app: express.Express; registry: SessionRegistry; store: SessionStore }> {
  const store = options.store ?? new SqliteSessionStore(":memory:");
  const limits = new ClientLimits(options.limits);
  const cases = new Map((options.cases ?? []).map((patientCase) => [patientCase.id, patientCase]));
  const registry = new SessionRegistry(store, {
    modules: options.modules,
    cases,
    ...(options.questionReader ? { questionReader: options.questionReader } : {}),
    ...(options.maxDoctorTurns ? { maxDoctorTurns: options.maxDoctorTurns } : {}),
    maxSessions: options.maxSessions ?? 1000,
    sessionsPerClient: limits.sessionsPerClient,
    idleMs: (options.idleMinutes ?? 24 * 60) * 60_000,
    ...(options.transcriptsDir ? { transcripts: new TranscriptWriter(options.transcriptsDir) } : {}),
    ...(options.semanticRedFlags ? { semanticRedFlags: options.semanticRedFlags } : {}),
  });
  // Loaded in the background (never rejects): until it is on, turns are screened by the rules alone.
  void options.semanticRedFlags?.warmUp();
  await registry.expireIdle();
  await registry.resume();
  const identities = new ClientIdentities(await store.clientSecret(), limits);
  const context: ChatContext = { options, registry, limits, identities, cases };

  const app = express();
  app.disable("x-powered-by");
  app.use(securityHeaders);
  app.use(guardRequests(allowedHostNames(options.host ?? "127.0.0.1", options.allowedHosts)));
  app.use(express.static(PUBLIC_DIR, { index: "index.html", cacheControl: false }));
  app.use("/api", express.json({ limit: "16kb" }));
  app.get("/api/health", (_request, response) => {
    const semantic = options.semanticRedFlags?.status() ?? SEMANTIC_NOT_ENABLED;
    response.json({ ok: true, sessions: registry.size, redFlags: { rules: "on", semantic } });
  });
  // The page's status names and the record's labels, from the ontology (the page hard-codes none).
  app.get("/api/ontology", (_request, response) => {
    response.json({ statuses: STATUS_NAMES, presentStatuses: PRESENT_STATUSES, recordLabels: recordLabels() });
  });
  app.get("/api/cases", (request, response) => {
    identities.clientOf(request, response);
    response.json({ cases: [...cases.values()].map(({ id, title }) => ({ id, title })) });
  });
  app.use("/api", sessionRoutes(context));
  app.use((_request, _response, next) => next(new HttpError(404, "not_found", "no such page or endpoint")));
  app.use(sendError);
  return { app, registry, store };
}

/** Starts the server; binds 127.0.0.1 unless told otherwise. Idle sessions are swept every minute. */
export async function startChatServer(
  options: ChatServerOptions & { port?: number },
): Promise<{ url: string; registry: SessionRegistry; close(): Promise<void> }> {
  const host = options.host ?? "127.0.0.1";
  const { app, registry, store } = await createChatApp({ ...options, host });
  const sweep = setInterval(
    () =>
      void registry
        .expireIdle()
        .catch((error: Error) =>
          process.stderr.write(`anamnesis chat: expiring idle sessions failed: ${error.message}\n`),
        ),
    60_000,
  );
  sweep.unref();
  return new Promise((resolve, reject) => {
    const server = app.listen(options.port ?? 0, host, (error?: Error) => {
      if (error) {
        reject(error);
        return;
      }
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : options.port;
      const close = async () => {
        clearInterval(sweep);
        const closed = new Promise<void>((done) => server.close(() => done()));
        server.closeIdleConnections();
        await closed;
        await store.close();
      };
      resolve({ url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`, registry, close });
    });
    server.on("error", reject);
    server.on("clientError", answerClientError);
  });
}
