import express, { type NextFunction, type Request, type Response } from "express";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { Conversation, type TurnOutcome } from "../src/dm/conversation.ts";
import type { DialogueModules } from "../src/modules/types.ts";
import { PatientSimulator, type PatientCase } from "../src/simulator/patient-simulator.ts";
import { describeIssues } from "../src/cmas/schemas.ts";
import type { QuestionReader } from "../src/modules/embedded/question-reader.ts";
import { PracticeDialogue } from "../src/simulator/practice.ts";
import { BUNDLED } from "../src/package-paths.ts";

/**
 * The chat server: a person (or the simulated patient) talks to the dialogue system and watches the
 * CMAS profile fill in. Every request body is validated; every failure is a JSON error with a code;
 * no request can crash the process. Transcripts are written only to a directory the user names.
 */

export interface ChatServerOptions {
  readonly modules: DialogueModules;
  /** Simulated-patient cases offered on the page. */
  readonly cases?: readonly PatientCase[];
  /** Where to save a transcript per session (JSON, rewritten after every turn). Nothing is saved without it. */
  readonly transcriptsDir?: string;
  /** Sessions kept in memory; the least recently used is dropped beyond this. */
  readonly maxSessions?: number;
  readonly maxDoctorTurns?: number;
  /** Reads a trainee's questions in practice sessions (`role: "doctor"`); practice mode is off without it. */
  readonly questionReader?: QuestionReader;
}

/** A practice session: the user is the doctor and the simulated patient answers. */
interface PracticeSession {
  readonly id: string;
  readonly practice: PracticeDialogue;
  readonly created: string;
  turns: number;
}

interface Session {
  readonly id: string;
  readonly conversation: Conversation;
  readonly simulator?: PatientSimulator;
  readonly created: string;
  /** The doctor actions of the last reply, for the simulated patient. */
  lastActions: TurnOutcome["actions"];
  turns: number;
  busy: boolean;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const createSessionBody = z.strictObject({ case: z.string().min(1).max(100).optional(), role: z.enum(["patient", "doctor"]).optional() });
const turnBody = z.strictObject({ text: z.string().trim().min(1, "say something").max(2000) });

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new HttpError(400, "invalid_request", describeIssues(parsed.error));
  return parsed.data;
}

const PUBLIC_DIR = BUNDLED.serverPublic;

export function createChatApp(options: ChatServerOptions): express.Express {
  const sessions = new Map<string, Session | PracticeSession>();
  const cases = new Map((options.cases ?? []).map((patientCase) => [patientCase.id, patientCase]));
  const maxSessions = options.maxSessions ?? 200;
  if (options.transcriptsDir) mkdirSync(options.transcriptsDir, { recursive: true });

  const practiceView = (session: PracticeSession) => ({
    id: session.id,
    role: "doctor" as const,
    case: session.practice.patientCase.id,
    title: session.practice.patientCase.title,
    history: session.practice.history,
    coverage: session.practice.coverage(),
    ended: false,
    error: null,
    turns: session.turns,
  });

  const view = (session: Session) => {
    const snapshot = session.conversation.snapshot();
    return { id: session.id, case: session.simulator?.patientCase.id ?? null, history: snapshot.history, state: snapshot.state, ended: snapshot.ended, error: snapshot.error, turns: session.turns };
  };

  const save = (session: Session | PracticeSession) => {
    if (!options.transcriptsDir) return;
    const shown = "practice" in session ? practiceView(session) : view(session);
    writeFileSync(join(options.transcriptsDir, `${session.id}.json`), `${JSON.stringify({ created: session.created, ...shown }, null, 2)}\n`);
  };

  const anySessionOf = (request: Request): Session | PracticeSession => {
    const id = String(request.params.id);
    const session = sessions.get(id);
    if (!session) throw new HttpError(404, "unknown_session", `no session ${id}`);
    // Least recently used goes first when the store is full: re-insert on every use.
    sessions.delete(id);
    sessions.set(id, session);
    return session;
  };

  /** A session where the system is the doctor (practice sessions have their own turns). */
  const sessionOf = (request: Request): Session => {
    const session = anySessionOf(request);
    if ("practice" in session) throw new HttpError(409, "practice_session", "in a practice session you are the doctor: send your questions as turns");
    return session;
  };

  /** Runs one turn, one at a time per session (a second request while busy is refused, not queued). */
  const runTurn = async (session: Session, turn: () => Promise<TurnOutcome>) => {
    if (session.busy) throw new HttpError(409, "busy", "the previous turn is still running");
    if (session.conversation.snapshot().ended) throw new HttpError(409, "ended", "this conversation has ended; start a new one");
    session.busy = true;
    try {
      const outcome = await turn();
      if (outcome.error === null) {
        session.lastActions = outcome.actions;
        session.turns += 1;
      }
      save(session);
      return { ...view(session), outcome };
    } finally {
      session.busy = false;
    }
  };

  const app = express();
  app.disable("x-powered-by");
  app.use(express.json({ limit: "16kb" }));
  app.use(express.static(PUBLIC_DIR, { index: "index.html" }));

  app.get("/api/health", (_request, response) => {
    response.json({ ok: true, sessions: sessions.size });
  });

  app.get("/api/cases", (_request, response) => {
    response.json({ cases: [...cases.values()].map(({ id, title }) => ({ id, title })) });
  });

  app.post("/api/sessions", (request, response) => {
    const body = parseBody(createSessionBody, request.body);
    if (body.role === "doctor" && body.case === undefined) throw new HttpError(400, "invalid_request", "case: a practice session (role doctor) needs a case");
    const patientCase = body.case !== undefined ? cases.get(body.case) : undefined;
    if (body.case !== undefined && !patientCase) throw new HttpError(404, "unknown_case", `no case ${body.case}`);
    if (body.role === "doctor" && !options.questionReader) throw new HttpError(409, "practice_unavailable", "practice mode is not available on this server");
    while (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value!);
    if (body.role === "doctor") {
      const practiceSession: PracticeSession = { id: randomUUID(), practice: new PracticeDialogue(patientCase!, options.questionReader!), created: new Date().toISOString(), turns: 0 };
      sessions.set(practiceSession.id, practiceSession);
      save(practiceSession);
      response.status(201).json(practiceView(practiceSession));
      return;
    }
    const session: Session = {
      id: randomUUID(),
      conversation: new Conversation(options.modules, options.maxDoctorTurns ? { maxDoctorTurns: options.maxDoctorTurns } : {}),
      ...(patientCase ? { simulator: new PatientSimulator(patientCase) } : {}),
      created: new Date().toISOString(),
      lastActions: null,
      turns: 0,
      busy: false,
    };
    sessions.set(session.id, session);
    save(session);
    response.status(201).json(view(session));
  });

  app.get("/api/sessions/:id", (request, response) => {
    const session = anySessionOf(request);
    response.json("practice" in session ? practiceView(session) : view(session));
  });

  app.post("/api/sessions/:id/turns", async (request, response) => {
    const found = anySessionOf(request);
    const { text } = parseBody(turnBody, request.body);
    if ("practice" in found) {
      const { patient, actions } = found.practice.ask(text);
      found.turns += 1;
      save(found);
      response.json({ ...practiceView(found), patient, actions });
      return;
    }
    const session: Session = found;
    response.json(await runTurn(session, () => session.conversation.say(text)));
  });

  app.post("/api/sessions/:id/simulate", async (request, response) => {
    const session = sessionOf(request);
    if (!session.simulator) throw new HttpError(409, "no_case", "this session has no simulated patient; start one with a case");
    const simulator = session.simulator;
    const text = session.turns === 0 ? simulator.openingStatement() : simulator.answer(session.lastActions);
    response.json({ patient: text, ...(await runTurn(session, () => session.conversation.say(text))) });
  });

  app.post("/api/sessions/:id/retry", async (request, response) => {
    const session = sessionOf(request);
    if (session.conversation.snapshot().error === null) throw new HttpError(409, "nothing_to_retry", "the last turn did not fail");
    response.json(await runTurn(session, () => session.conversation.retry()));
  });

  app.delete("/api/sessions/:id", (request, response) => {
    const session = anySessionOf(request);
    sessions.delete(session.id);
    response.status(204).end();
  });

  app.use("/api", (_request, _response, next) => next(new HttpError(404, "not_found", "no such endpoint")));

  // Express 5 forwards rejected async handlers here; body-parser errors arrive with a status.
  app.use((error: unknown, _request: Request, response: Response, _next: NextFunction) => {
    if (error instanceof HttpError) {
      response.status(error.status).json({ error: { code: error.code, message: error.message } });
      return;
    }
    const status = typeof (error as { status?: unknown }).status === "number" ? (error as { status: number }).status : 500;
    const code = status === 413 ? "too_large" : status === 400 ? "invalid_json" : "internal";
    const message = status === 500 ? "internal error" : (error as Error).message;
    if (status === 500) process.stderr.write(`anamnesis chat: ${(error as Error)?.stack ?? String(error)}\n`);
    response.status(status).json({ error: { code, message } });
  });
  return app;
}

/** Starts the server; binds 127.0.0.1 unless told otherwise. */
export async function startChatServer(options: ChatServerOptions & { port?: number; host?: string }): Promise<{ url: string; close(): Promise<void> }> {
  const app = createChatApp(options);
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    const server = app.listen(options.port ?? 0, host, (error?: Error) => {
      if (error) {
        reject(error);
        return;
      }
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : options.port;
      resolve({
        url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
    server.on("error", reject);
  });
}
