import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMeditod } from "../../src/data/meditod.ts";
import { createModules } from "../../src/modules/builders/create-modules.ts";
import { chatServerForFile } from "./chat-server.ts";

/** The server refuses other origins and foreign hosts, accepts only JSON bodies, and limits each client on its own. */

const server = chatServerForFile(async () => ({
  modules: (await createModules("embedded", loadMeditod())).modules,
  limits: { sessionsPerClient: 3, turnBurst: 5, turnsPerSecond: 0.5 },
}));
let port: number;
beforeAll(() => {
  port = Number(new URL(server.url).port);
});

/** A raw HTTP request (fetch cannot set `Host` or `Origin` freely). */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            json: text && response.headers["content-type"]?.includes("json") ? JSON.parse(text) : text,
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const json = { "content-type": "application/json" };

describe("the chat server keeps other origins out", () => {
  it("refuses a Host that is not its own (DNS rebinding), and serves its loopback names", async () => {
    for (const host of ["evil.example", `evil.example:${port}`, "127.0.0.1.evil.example", "127.0.0.1@evil.example"]) {
      const answer = await send("GET", "/api/health", { host });
      expect(answer.status, host).toBe(403);
      expect(answer.json.error.code).toBe("forbidden_host");
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
      expect((await send("GET", "/api/health", { host })).status, host).toBe(200);
  });

  it("refuses requests from another origin: a page elsewhere cannot create sessions, even with a simple no-cors POST", async () => {
    for (const origin of ["http://evil.example", `http://localhost:${port + 1}`, "null"]) {
      const answer = await send("POST", "/api/sessions", { ...json, origin }, "{}");
      expect(answer.status, origin).toBe(403);
      expect(answer.json.error.code).toBe("forbidden_origin");
    }
    expect((await send("POST", "/api/sessions", { ...json, "sec-fetch-site": "cross-site" }, "{}")).status).toBe(403);
    expect(
      (
        await send(
          "POST",
          "/api/sessions",
          { ...json, origin: `http://127.0.0.1:${port}`, "sec-fetch-site": "same-origin" },
          "{}",
        )
      ).status,
    ).toBe(201);
    expect(server.registry.size).toBe(1);
  });

  it("accepts only application/json bodies: text/plain and form posts are refused", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const answer = await send("POST", "/api/sessions", { "content-type": type }, "{}");
      expect(answer.status, type).toBe(415);
      expect(answer.json.error.code).toBe("unsupported_media_type");
    }
    expect((await send("POST", "/api/sessions", {}, "{}")).status).toBe(415);
  });

  it("sends a strict CSP, nosniff, frame-ancestors 'none' and no-store on the page and the API", async () => {
    for (const path of ["/", "/app.js", "/api/health", "/api/sessions/nope"]) {
      const { headers } = await send("GET", path);
      expect(headers["content-security-policy"], path).toMatch(/default-src 'none'/);
      expect(headers["content-security-policy"]).toMatch(/script-src 'self'/);
      expect(headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["cache-control"]).toBe("no-store");
    }
  });

  it("refuses lone surrogates in text with a 400 and a code", async () => {
    const created = await send("POST", "/api/sessions", json, "{}");
    const answer = await send(
      "POST",
      `/api/sessions/${created.json.id}/turns`,
      json,
      '{"text": "I have a cough \\ud800"}',
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: "invalid_request", message: expect.stringMatching(/surrogate/) });
  });
});

describe("per-client limits", () => {
  /** Two browsers, each with the signed client cookie the server gave it on its first API call. */
  const alice = { ...json, cookie: "" };
  const mallory = { ...json, cookie: "" };
  const issuedCookie = async () => String((await send("GET", "/api/cases")).headers["set-cookie"]).split(";")[0]!;
  beforeAll(async () => {
    alice.cookie = await issuedCookie();
    mallory.cookie = await issuedCookie();
  });

  it("gives a browser a signed client cookie on its first API call", async () => {
    const answer = await send("GET", "/api/cases");
    expect(String(answer.headers["set-cookie"])).toMatch(
      /^anamnesis_client=[0-9a-f]{32}\.[A-Za-z0-9_-]{22}; Path=\/; HttpOnly; SameSite=Strict/,
    );
  });

  it("a client creating many sessions evicts only its own, never another client's", async () => {
    const kept = (await send("POST", "/api/sessions", alice, "{}")).json.id;
    const mine: string[] = [];
    for (let index = 0; index < 10; index += 1) mine.push((await send("POST", "/api/sessions", mallory, "{}")).json.id);
    expect((await send("GET", `/api/sessions/${kept}`, alice)).status).toBe(200);
    const alive = await Promise.all(mine.map(async (id) => (await send("GET", `/api/sessions/${id}`, mallory)).status));
    expect(alive).toEqual([...Array(7).fill(404), 200, 200, 200]);
  });

  it("a client sending turns too fast is slowed with 429 and Retry-After, while another client's turns go through", async () => {
    const hers = (await send("POST", "/api/sessions", alice, "{}")).json.id;
    const his = (await send("POST", "/api/sessions", mallory, "{}")).json.id;
    const statuses: number[] = [];
    for (let index = 0; index < 8; index += 1) {
      const answer = await send(
        "POST",
        `/api/sessions/${his}/turns`,
        mallory,
        JSON.stringify({ text: "I have a cough." }),
      );
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(answer.json.error.code).toBe("rate_limited");
        expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
      }
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(2);
    expect(
      (await send("POST", `/api/sessions/${hers}/turns`, alice, JSON.stringify({ text: "I have a cough." }))).status,
    ).toBe(200);
  });
});
