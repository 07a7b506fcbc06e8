import { Worker, type MessagePort } from "node:worker_threads";
import type { DialogueState } from "../../cmas/schemas.ts";
import type { DialogueTurn, NluModule } from "../../language/module-interfaces.ts";
import type { ConsultTurn, StateTracker, StateTracking } from "./consult-roles.ts";
import { historyOf, nluStateTracker } from "./state-tracker.ts";

/**
 * State tracking on a worker thread: the embedded NLU reading every patient turn is most of the CPU a
 * consultation with an LLM doctor spends, and on the thread that also drives the model calls it holds
 * them back. The worker (its entry, above this layer, builds the NLU and calls
 * {@link serveStateTracking}) keeps one {@link nluStateTracker} consultation per session and reads
 * the turns in the order they were sent, so the states are those the same tracker gives on this
 * thread. Each session keeps what it sent: if the worker cannot start or dies, every session is read
 * again on this thread by the fallback tracker, and the run goes on.
 */

/** What this thread sends: a patient turn to track (with the turns added since the last), or the end of a session. */
type TrackingRequest =
  | {
      readonly kind: "track";
      readonly session: number;
      readonly turns: readonly DialogueTurn[];
      readonly utterance: string;
    }
  | { readonly kind: "close"; readonly session: number };

/** What the worker answers, in the order of the requests of a session: the state, or why there is none. */
type TrackingReply =
  { readonly session: number; readonly state: DialogueState } | { readonly session: number; readonly error: string };

/** In the worker: serves the tracking requests on `port` with `nlu` (awaited before the first). */
export function serveStateTracking(port: MessagePort, nlu: Promise<NluModule>): void {
  const sessions = new Map<number, { readonly tracking: StateTracking; readonly history: DialogueTurn[] }>();
  let queue: Promise<unknown> = nlu;
  const handle = async (request: TrackingRequest, reader: NluModule): Promise<void> => {
    if (request.kind === "close") {
      sessions.delete(request.session);
      return;
    }
    let session = sessions.get(request.session);
    if (!session) sessions.set(request.session, (session = { tracking: nluStateTracker(reader).start(), history: [] }));
    session.history.push(...request.turns);
    try {
      const state = await session.tracking.track(session.history, request.utterance);
      port.postMessage({ session: request.session, state } satisfies TrackingReply);
    } catch (error) {
      port.postMessage({ session: request.session, error: (error as Error).message ?? String(error) });
    }
  };
  port.on("message", (request: TrackingRequest) => {
    queue = queue.then(async () => handle(request, await nlu));
  });
}

/** A call of a session: its history (how many turns of it) and utterance, and who waits for its state. */
interface Call {
  readonly historyLength: number;
  readonly utterance: string;
  readonly resolve: (state: DialogueState) => void;
  readonly reject: (error: Error) => void;
}

/** One consultation tracked on the worker, able to go on with the fallback tracker. */
class WorkerSession implements StateTracking {
  /** The turns sent so far (as the NLU reads them), and how many of the consultation's they came from. */
  private readonly history: DialogueTurn[] = [];
  private consumed = 0;
  private readonly calls: Call[] = [];
  /** How many calls the worker has answered. */
  private answered = 0;
  /** The session on this thread once the worker is gone. */
  private local: StateTracking | undefined;

  constructor(
    private readonly pool: TrackingPool,
    readonly id: number,
  ) {}

  track(turns: readonly ConsultTurn[], utterance: string): Promise<DialogueState> {
    const added = historyOf(turns.slice(this.consumed));
    this.consumed = turns.length;
    this.history.push(...added);
    return new Promise((resolve, reject) => {
      const call = { historyLength: this.history.length, utterance, resolve, reject };
      this.calls.push(call);
      if (this.local) this.readHere(call);
      else this.pool.send({ kind: "track", session: this.id, turns: added, utterance });
    });
  }

  close(): void {
    this.pool.close(this);
  }

  /** The worker's answer to the oldest call it has not answered. */
  answer(reply: TrackingReply): void {
    const call = this.calls[this.answered++];
    if (!call) return;
    if ("state" in reply) call.resolve(reply.state);
    else call.reject(new Error(reply.error));
  }

  /** The worker is gone: every call is read again here, in order (the answered ones to rebuild the state). */
  goLocal(fallback: StateTracker): void {
    this.local = fallback.start();
    for (const [index, call] of this.calls.entries()) this.readHere(call, index < this.answered);
  }

  private readHere(call: Call, alreadyAnswered = false): void {
    const state = this.local!.track(this.history.slice(0, call.historyLength), call.utterance);
    if (!alreadyAnswered) state.then(call.resolve, call.reject);
    else state.catch(() => undefined);
  }
}

/** The worker and its sessions; see the module comment. */
class TrackingPool {
  private worker: Worker | undefined;
  private readonly sessions = new Map<number, WorkerSession>();
  private nextId = 0;
  /** Calls sent and not answered: the worker keeps the process alive only while there are some. */
  private waiting = 0;

  constructor(
    url: URL,
    private readonly fallback: () => StateTracker,
  ) {
    try {
      this.worker = new Worker(url);
      this.worker.unref();
      this.worker.on("message", (reply: TrackingReply) => this.answer(reply));
      this.worker.on("error", () => this.fail());
      this.worker.on("messageerror", () => this.fail());
      this.worker.on("exit", () => this.fail());
    } catch {
      this.worker = undefined;
    }
  }

  start(): WorkerSession {
    const session = new WorkerSession(this, this.nextId++);
    this.sessions.set(session.id, session);
    if (!this.worker) session.goLocal(this.fallback());
    return session;
  }

  send(request: TrackingRequest): void {
    if (request.kind === "track" && this.waiting++ === 0) this.worker?.ref();
    this.worker?.postMessage(request);
  }

  close(session: WorkerSession): void {
    this.sessions.delete(session.id);
    this.worker?.postMessage({ kind: "close", session: session.id } satisfies TrackingRequest);
  }

  private answer(reply: TrackingReply): void {
    if (--this.waiting === 0) this.worker?.unref();
    this.sessions.get(reply.session)?.answer(reply);
  }

  /** The worker failed to start or died: its sessions go on here. */
  private fail(): void {
    if (!this.worker) return;
    const worker = this.worker;
    this.worker = undefined;
    this.waiting = 0;
    worker.removeAllListeners();
    void worker.terminate().catch(() => undefined);
    const fallback = this.fallback();
    for (const session of this.sessions.values()) session.goLocal(fallback);
  }

  /** Stops the worker (its pending sessions go on here). */
  async terminate(): Promise<void> {
    const worker = this.worker;
    this.fail();
    await worker?.terminate();
  }
}

/** A state tracker on a worker thread, with what stops it. */
export interface WorkerStateTracker extends StateTracker {
  /** Stops the worker; sessions still tracking go on with the fallback. */
  close(): Promise<void>;
}

/**
 * A state tracker whose NLU runs on the worker thread started from `url` (a module that calls
 * {@link serveStateTracking}), started now; `fallback` (the same NLU on this thread, asked for when
 * first needed) reads the turns if the worker cannot start or dies.
 */
export function workerStateTracker(url: URL, fallback: () => StateTracker): WorkerStateTracker {
  const pool = new TrackingPool(url, fallback);
  return { start: () => pool.start(), close: () => pool.terminate() };
}
