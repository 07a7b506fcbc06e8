import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ClientLimits } from "../../server/client-limits.ts";
import { SqliteSessionStore } from "../../server/sqlite-session-store.ts";
import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { tempDirForFile } from "../temp-dirs.ts";
import { chatServerForTest } from "./chat-server.ts";
import { chatPageHarness } from "./page-harness.ts";
import { scriptedModules } from "./scripted-modules.ts";

/**
 * Signed client cookies: a script can neither mint identities (each with its own quota of sessions and
 * turns) nor collect fresh ones by dropping its cookie faster than its address's issuance rate; a
 * browser keeps one identity, across restarts too.
 */

/** Deterministic modules: the cookies are under test here, not the engine. */
const modules: DialogueModules = scriptedModules({
  frames: () => [{ intent: "inform" }],
  actions: [{ action: "inquire", symptom: [{ value: "fever" }] }],
  reply: "Do you have a fever?",
});
const folder = tempDirForFile("anamnesis-cookies-");
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const SIGNED_COOKIE = /^anamnesis_client=([0-9a-f]{32})\.([A-Za-z0-9_-]{22})$/;

interface Answer {
  readonly status: number;
  readonly json: any;
  /** The client cookie the server set (`anamnesis_client=…`), if any. */
  readonly issued: string | null;
}

/** One API call with `cookie` (if any) as the request's Cookie header. */
async function call(base: string, method: string, path: string, cookie?: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(cookie ? { cookie } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const issued = response.headers.getSetCookie().find((line) => line.startsWith("anamnesis_client="));
  return {
    status: response.status,
    json: response.status === 204 ? null : await response.json(),
    issued: issued ? issued.split(";")[0]! : null,
  };
}

/** A new cookie from the server, as a browser's first API call gets it. */
async function freshCookie(base: string): Promise<string> {
  const { issued } = await call(base, "GET", "/api/cases");
  if (!issued) throw new Error("the server issued no client cookie");
  return issued;
}

describe("signed client cookies", () => {
  it("issues cookies of the form <id>.<HMAC>, each a distinct client", async () => {
    const server = await chatServerForTest({ modules });
    const first = await freshCookie(server.url);
    const second = await freshCookie(server.url);
    expect(first).toMatch(SIGNED_COOKIE);
    expect(second).toMatch(SIGNED_COOKIE);
    expect(first).not.toBe(second);
    // A browser presenting its cookie is that client, and is not handed another.
    const created = await call(server.url, "POST", "/api/sessions", first, {});
    expect(created.status).toBe(201);
    expect(created.issued).toBeNull();
    expect(server.registry.get(created.json.id).client).toBe(`cookie:${SIGNED_COOKIE.exec(first)![1]}`);
  });

  it("a forged cookie (right shape, wrong signature) counts as no cookie: it gets its address's limits, not a fresh quota", async () => {
    const server = await chatServerForTest({ modules, limits: { sessionsPerClient: 2 } });
    const genuine = await freshCookie(server.url);
    const [, id, signature] = SIGNED_COOKIE.exec(genuine)!;
    const other = (character: string) => (character === "A" ? "Q" : "A");
    const forged = [
      `anamnesis_client=${"a".repeat(32)}.${signature}`, // another id under a genuine signature
      `anamnesis_client=${id}.${other(signature![0]!)}${signature!.slice(1)}`, // the genuine id, its signature altered
      // The same bytes in another spelling: the last character's low 4 bits, which decoding drops, changed.
      `anamnesis_client=${id}.${signature!.slice(0, -1)}${BASE64URL[BASE64URL.indexOf(signature!.at(-1)!) + 1]}`,
      `anamnesis_client=${"b".repeat(32)}`, // the old unsigned form
    ];
    const kept = (await call(server.url, "POST", "/api/sessions", genuine, {})).json.id;
    const theirs: string[] = [];
    for (const cookie of forged) {
      const created = await call(server.url, "POST", "/api/sessions", cookie, {});
      expect(created.status, cookie).toBe(201);
      expect(server.registry.get(created.json.id).client, cookie).toBe("address:127.0.0.1");
      // As for any cookie-less request, a good cookie comes back (a browser with an old unsigned one gets its replacement).
      expect(created.issued, cookie).toMatch(SIGNED_COOKIE);
      theirs.push(created.json.id);
    }
    // Four forged identities share one quota of two: the first two sessions made room for the last two.
    const statuses = await Promise.all(
      theirs.map(async (session) => (await call(server.url, "GET", `/api/sessions/${session}`)).status),
    );
    expect(statuses).toEqual([404, 404, 200, 200]);
    expect((await call(server.url, "GET", `/api/sessions/${kept}`, genuine)).status).toBe(200);
  });

  it("cookie-less requests beyond the address's issuance rate get no new cookie and share the address's limits", async () => {
    const server = await chatServerForTest({
      modules,
      limits: { identityBurst: 3, identitiesPerMinute: 1, sessionsPerClient: 2 },
    });
    const answers: Answer[] = [];
    const clients: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      answers.push(await call(server.url, "POST", "/api/sessions", undefined, {}));
      clients.push(server.registry.get(answers.at(-1)!.json.id).client);
    }
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect(answers.map((answer) => answer.issued !== null)).toEqual([true, true, true, false, false, false]);
    // Every cookie-less session is the address's: six of them in a quota of two leave the last two.
    expect(clients).toEqual(Array(6).fill("address:127.0.0.1"));
    const statuses = await Promise.all(
      answers.map(async (answer) => (await call(server.url, "GET", `/api/sessions/${answer.json.id}`)).status),
    );
    expect(statuses).toEqual([404, 404, 404, 404, 200, 200]);
    // The cookies that were issued are good ones: each its own client.
    const holder = answers[0]!.issued!;
    const created = await call(server.url, "POST", "/api/sessions", holder, {});
    expect(server.registry.get(created.json.id).client).toBe(`cookie:${SIGNED_COOKIE.exec(holder)![1]}`);
  });

  it("hands out identities per address at the configured rate, refilled over time", () => {
    let now = 0;
    const limits = new ClientLimits({ identityBurst: 2, identitiesPerMinute: 6 }, () => now);
    expect([
      limits.mayIssueIdentity("address:a"),
      limits.mayIssueIdentity("address:a"),
      limits.mayIssueIdentity("address:a"),
    ]).toEqual([true, true, false]);
    expect(limits.mayIssueIdentity("address:b")).toBe(true);
    now += 9_000;
    expect(limits.mayIssueIdentity("address:a")).toBe(false);
    now += 1_000;
    expect([limits.mayIssueIdentity("address:a"), limits.mayIssueIdentity("address:a")]).toEqual([true, false]);
  });
});

describe("the cookie secret lives in the session store", () => {
  it("a signed cookie survives a server restart on the same database file", async () => {
    const path = join(folder, "restart.db");
    const first = await chatServerForTest({ modules, store: new SqliteSessionStore(path) });
    const cookie = await freshCookie(first.url);
    await first.close();
    const second = await chatServerForTest({ modules, store: new SqliteSessionStore(path) });
    const created = await call(second.url, "POST", "/api/sessions", cookie, {});
    expect(created.issued).toBeNull();
    expect(second.registry.get(created.json.id).client).toBe(`cookie:${SIGNED_COOKIE.exec(cookie)![1]}`);
    // Another database, another secret: the cookie is not good there.
    const elsewhere = await chatServerForTest({ modules, store: new SqliteSessionStore(join(folder, "other.db")) });
    const refused = await call(elsewhere.url, "POST", "/api/sessions", cookie, {});
    expect(elsewhere.registry.get(refused.json.id).client).toBe("address:127.0.0.1");
    expect(refused.issued).toMatch(SIGNED_COOKIE);
  });

  it("a database made before the meta table gains one, keeps its sessions, and keeps its secret from then on", async () => {
    const path = join(folder, "old.db");
    const old = new Database(path);
    old.exec(
      "CREATE TABLE sessions (id TEXT PRIMARY KEY, kind TEXT NOT NULL, case_id TEXT, client TEXT NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL, turns INTEGER NOT NULL, seq INTEGER NOT NULL, record TEXT NOT NULL) STRICT;" +
        "CREATE TABLE turns (session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE, seq INTEGER NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL, input TEXT, outcome TEXT NOT NULL, PRIMARY KEY (session_id, seq)) STRICT, WITHOUT ROWID;",
    );
    old
      .prepare(
        "INSERT INTO sessions VALUES ('s1', 'conversation', NULL, 'cookie:x', '2026-01-01', '2026-01-01', 0, 0, '{}')",
      )
      .run();
    old.close();
    const store = new SqliteSessionStore(path);
    const secret = await store.clientSecret();
    expect(secret).toHaveLength(32);
    expect(await store.clientSecret()).toEqual(secret);
    expect((await store.all()).map((session) => session.id)).toEqual(["s1"]);
    await store.close();
    const reopened = new SqliteSessionStore(path);
    expect(await reopened.clientSecret()).toEqual(secret);
    await reopened.close();
  });

  it("with an in-memory store the secret is per process: two stores, two secrets", async () => {
    const [one, two] = [new SqliteSessionStore(":memory:"), new SqliteSessionStore(":memory:")];
    expect(await one.clientSecret()).not.toEqual(await two.clientSecret());
    await Promise.all([one.close(), two.close()]);
  });
});

describe("a browser keeps one signed identity", () => {
  const chat = chatPageHarness({ modules });

  it("gets a signed, HttpOnly cookie on its first API call and is that client from then on", async () => {
    const { page, requests } = await chat.openChat();
    const [cookie] = (await page.context().cookies()).filter((candidate) => candidate.name === "anamnesis_client");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    const [, id] = SIGNED_COOKIE.exec(`anamnesis_client=${cookie!.value}`)!;
    await page.fill("#message", "I have a cough.");
    await page.click("#send");
    await page.locator("#transcript li").nth(2).waitFor();
    const session = requests.map((url) => /\/api\/sessions\/([^/]+)\/turns$/.exec(url)?.[1]).find(Boolean)!;
    expect(chat.registry.get(session).client).toBe(`cookie:${id}`);
    const after = (await page.context().cookies()).filter((candidate) => candidate.name === "anamnesis_client");
    expect(after.map((candidate) => candidate.value)).toEqual([cookie!.value]);
  });
});
