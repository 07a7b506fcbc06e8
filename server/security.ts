import type { NextFunction, Request, Response } from "express";
import { networkInterfaces, hostname } from "node:os";
import { HttpError } from "./http-error.ts";

/**
 * What keeps other origins out of a server that holds medical histories: requests must name this
 * server in `Host` (a DNS-rebinding page names its own domain), must not come from another origin
 * (`Origin`, `Sec-Fetch-Site`), and may carry only JSON bodies (the "simple" cross-origin requests a
 * page can send without asking — form posts, `text/plain` — are refused). Every answer carries a
 * strict CSP and is never cached.
 */

/** The only sources the page needs: its own script, style and API. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"];
const WILDCARD_ADDRESSES = new Set(["0.0.0.0", "::", ""]);

/** The host names a server bound to `host` answers to: loopback names, or this machine's addresses when bound to all. */
export function allowedHostNames(host: string, extra: readonly string[] = []): Set<string> {
  const names = new Set([host.toLowerCase(), ...LOOPBACK_NAMES, ...extra.map((name) => name.toLowerCase())]);
  if (WILDCARD_ADDRESSES.has(host)) {
    names.add(hostname().toLowerCase());
    for (const addresses of Object.values(networkInterfaces()))
      for (const address of addresses ?? []) names.add(address.address.toLowerCase());
  }
  return names;
}

/** The host name of a `Host` header (`name:port`, `[v6]:port`), lower-cased; null if malformed. */
export function hostNameOf(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!match) return null;
  return (match[1] ?? match[2]!).toLowerCase();
}

/** Refuses a foreign `Host`, a cross-origin request, and a body that is not JSON. */
export function guardRequests(allowedNames: ReadonlySet<string>) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    const host = request.headers.host;
    const name = hostNameOf(host);
    if (name === null || !allowedNames.has(name))
      throw new HttpError(403, "forbidden_host", `this server does not answer to host '${String(host ?? "")}'`);
    const origin = request.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${host!.trim().toLowerCase()}`)
      throw new HttpError(403, "forbidden_origin", `requests from ${origin} are not accepted`);
    const site = request.headers["sec-fetch-site"];
    if (site === "cross-site" || site === "same-site")
      throw new HttpError(403, "forbidden_origin", "cross-site requests are not accepted");
    const hasBody =
      Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;
    if (hasBody && !request.is("application/json"))
      throw new HttpError(415, "unsupported_media_type", "request bodies must be application/json");
    next();
  };
}

/** Security headers on every answer; nothing is cached (pages and answers carry medical histories). */
export function securityHeaders(_request: Request, response: Response, next: NextFunction): void {
  response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("X-Frame-Options", "DENY");
  response.setHeader("Referrer-Policy", "no-referrer");
  response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  response.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  response.setHeader("Cache-Control", "no-store");
  next();
}
