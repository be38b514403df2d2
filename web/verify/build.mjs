// Build the verification page: bundle src/ui.js (and @noble/hashes) with esbuild and inline
// the script and the style sheet into ONE html file, with no external resources.
//
//   node build.mjs [OUT]     (default: ../../src/croupier/web/verify.html)
//
// The output depends only on the sources and the locked package versions, so a fresh build
// equals the committed page byte for byte (tests/test_web_verify.py checks this).

import { readFileSync, writeFileSync, renameSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, "..", "..", "src", "croupier", "web", "verify.html"));
const pkg = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
const noble = JSON.parse(readFileSync(join(here, "node_modules", "@noble", "hashes", "package.json"), "utf8"));

const bundle = await esbuild.build({
  entryPoints: [join(here, "src", "ui.js")],
  bundle: true,
  write: false,
  format: "iife",
  target: ["es2022"],
  charset: "utf8",
  legalComments: "inline",
  minify: false,
  absWorkingDir: here,
});
const script = bundle.outputFiles[0].text.replace(/<\/(script)/gi, "<\\/$1");
const style = readFileSync(join(here, "src", "page.css"), "utf8");
const html = readFileSync(join(here, "src", "page.html"), "utf8")
  .replaceAll("/*VERSION*/", pkg.version)
  .replaceAll("/*NOBLE*/", noble.version)
  .replace("/*STYLE*/", () => style.trimEnd())
  .replace("/*SCRIPT*/", () => script.trimEnd());

mkdirSync(dirname(out), { recursive: true });
writeFileSync(`${out}.tmp`, html);
renameSync(`${out}.tmp`, out);
console.log(`wrote ${out} (${html.length} characters)`);
