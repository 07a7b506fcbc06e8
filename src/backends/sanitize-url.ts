/** URLs as run records, error messages and cache keys may show them: without credentials. */

const SECRET_QUERY_KEYS = /key|token|secret|sig|password|auth/i;

/** A URL safe to log and record: no user/password, secret-looking query values replaced. */
export function sanitizeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    for (const key of [...parsed.searchParams.keys()]) {
      if (SECRET_QUERY_KEYS.test(key)) parsed.searchParams.set(key, "REDACTED");
    }
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//");
  }
}
