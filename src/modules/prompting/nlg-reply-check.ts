/**
 * Replies that cannot be a doctor's utterance, whatever the protocol: nothing, the JSON `null` a
 * gateway may put in place of content, or an HTML error page served with a 200. Such a reply stays the
 * prediction (the scorer sees what the model gave) and counts as a format error with this reason.
 */

/** The start of an HTML document. Example: `<!DOCTYPE html><html><head><title>502 Bad Gateway</title>`. */
const HTML_PAGE = /^\s*(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i;

/** Why an NLG reply is not an utterance, or undefined when it is one. */
export function nlgReplyFormatError(reply: string | null | undefined): string | undefined {
  if (reply === null || reply === undefined || reply.trim() === "") return "empty reply";
  if (reply.trim().toLowerCase() === "null") return "the reply is null";
  if (HTML_PAGE.test(reply)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(reply)?.[1]?.trim();
    return `an HTML page${title ? ` (${title})` : ""}, not an utterance`;
  }
  return undefined;
}
