import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import type { ClientLimits } from "./client-limits.ts";

/**
 * Who is asking, for the per-client limits. A browser gets a signed client cookie on its first API call
 * and is that client ever after; anything else — no cookie, a cookie whose signature does not check
 * (a script minting values to multiply its quota), or a cookie-less request beyond its address's
 * issuance rate — is its remote address, and shares that address's limits.
 */

export const CLIENT_COOKIE = "anamnesis_client";

/** Bytes of HMAC-SHA256 kept in the cookie: 128 bits, far beyond guessing, 22 base64url characters. */
const SIGNATURE_BYTES = 16;

/**
 * The client cookie among the request's cookies: a 32-hex-digit id, a dot, its signature in base64url
 * (`anamnesis_client=0123456789abcdef0123456789abcdef.q3b0Ww9mN2cXyZ-_aBcDeF`).
 */
const SIGNED_CLIENT_COOKIE = /(?:^|;\s*)anamnesis_client=([0-9a-f]{32})\.([A-Za-z0-9_-]{22})(?:;|$)/;

export class ClientIdentities {
  constructor(
    private readonly secret: Buffer,
    private readonly limits: ClientLimits,
  ) {}

  /** The signature of a client id: HMAC-SHA256 under the server's secret, truncated, in base64url. */
  private signature(id: string): string {
    return createHmac("sha256", this.secret).update(id).digest().subarray(0, SIGNATURE_BYTES).toString("base64url");
  }

  /** The cookie value for a client id: `<id>.<signature>`. */
  sign(id: string): string {
    return `${id}.${this.signature(id)}`;
  }

  /** The client id of a request's cookie header if its signature checks (compared in constant time), else null. */
  verify(cookieHeader: string | undefined): string | null {
    const [, id, signature] = SIGNED_CLIENT_COOKIE.exec(cookieHeader ?? "") ?? [];
    // Both groups are required by the pattern: a match has them, no match has neither.
    if (id === undefined || signature === undefined) return null;
    // The text is compared, not its decoded bytes: the last of 22 characters carries 4 bits that decoding
    // drops, and a cookie differing only there is not the one we issued.
    const given = Buffer.from(signature, "latin1");
    const expected = Buffer.from(this.signature(id), "latin1");
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }

  /**
   * The limits' key for a request: `cookie:<id>` for a signed cookie, else `address:<remote address>`
   * — and then a new signed cookie on the response, if the address may have another identity now.
   */
  clientOf(request: Request, response: Response): string {
    const id = this.verify(request.headers.cookie);
    if (id !== null) return `cookie:${id}`;
    const address = `address:${request.socket.remoteAddress ?? "unknown"}`;
    if (this.limits.mayIssueIdentity(address)) {
      response.cookie(CLIENT_COOKIE, this.sign(randomBytes(16).toString("hex")), {
        httpOnly: true,
        sameSite: "strict",
        path: "/",
      });
    }
    return address;
  }
}
