// Shared by the tests: the repository's paths and the fixture built from croupier's Python code.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const VECTORS = join(ROOT, "tests", "vectors", "bigdeal");

/** A file of the repository as bytes. */
export function bytesOf(...parts) {
  return new Uint8Array(readFileSync(join(ROOT, ...parts)));
}

/** A JSON file of the repository. */
export function jsonOf(...parts) {
  return JSON.parse(readFileSync(join(ROOT, ...parts), "utf8"));
}

/** The fixture tests/web_verify_fixtures.py writes (committed; a pytest test keeps it current). */
export const FIXTURE = jsonOf("web", "verify", "test", "fixtures", "python.json");

/** A file of the fixture's blob table, by its SHA-256. */
export function blob(sha256) {
  return new Uint8Array(Buffer.from(FIXTURE.blobs[sha256], "base64"));
}

/** The JSON blocks of a Markdown page that follow a `<!-- marker -->` line. */
export function jsonBlockAfter(page, marker) {
  const text = readFileSync(join(ROOT, "docs", page), "utf8");
  const start = text.indexOf(`<!-- ${marker} -->`);
  if (start < 0) throw new Error(`no ${marker} in ${page}`);
  const open = text.indexOf("```json", start);
  const close = text.indexOf("```", open + 7);
  return JSON.parse(text.slice(open + 7, close));
}
