// The page: read the chosen files, decide which scheme they belong to, run the verification
// and show the verdict.  Everything happens in this browser; nothing is sent anywhere.

import { InputError, parseBoardRange } from "./boards.js";
import { excerpt, pyStrip } from "./bytes.js";
import { BoardPlan, parseKey } from "./croupier_boards.js";
import { formatForName } from "./readers.js";
import { detail, reportLines, verdict, verifyBoards, verifySquareDeal } from "./verify.js";

const $ = (id) => document.getElementById(id);

const ROLES = {
  sqd: "SquareDeal event",
  sqk: "SquareDeal keys",
  key: "croupier-boards key",
  published: "published values (commitment)",
  pbn: "session file (PBN)",
  lin: "session file (LIN)",
  dlm: "session file (DLM)",
  dup: "session file (DUP)",
  lines: "session file (one deal a line)",
};

/** What a file is, from its name (and, for .json, its contents). */
function roleOf(file) {
  const lower = file.name.toLowerCase();
  for (const ext of ["sqd", "sqk", "key"]) if (lower.endsWith(`.${ext}`)) return ext;
  if (lower.endsWith(".json")) return "published";
  return formatForName(file.name);
}

let chosen = []; // [{name, data, role}]
let run = 0; // the number of the latest verification; older ones drop their result
let timer = null; // a verification waiting for typing to pause

async function readChosenFiles() {
  const list = [...$("files").files];
  chosen = await Promise.all(
    list.map(async (f) => {
      const file = { name: f.name, data: new Uint8Array(await f.arrayBuffer()) };
      return { ...file, role: roleOf(file) };
    }),
  );
  for (const file of chosen.filter((f) => f.role === "published")) fillPublished(file);
  showFiles();
}

// A JSON file as `croupier boards new-key --json` prints it fills the fields left empty:
// the JSON envelope of croupier (docs/json.md), whose "result" holds the values, or an
// object with the values themselves.
function fillPublished(file) {
  let data;
  try {
    data = JSON.parse(new TextDecoder().decode(file.data));
  } catch {
    file.problem = "not JSON";
    return;
  }
  if (typeof data === "object" && data !== null && typeof data.result === "object") {
    data = data.result;
  }
  if (typeof data !== "object" || data === null || typeof data.commitment !== "string") {
    file.problem = "no \"commitment\" in it";
    return;
  }
  const fill = (id, value) => {
    if (typeof value === "string" && !$(id).value) $(id).value = value;
  };
  fill("event", data.event);
  fill("plan", data.plan);
  fill("commitment", data.commitment);
}

function showFiles() {
  const list = $("file-list");
  list.replaceChildren(
    ...chosen.map((f) => {
      const item = document.createElement("li");
      const name = document.createElement("code");
      name.textContent = f.name;
      const role = document.createElement("span");
      const known = f.role !== null && !f.problem;
      role.className = known ? "role" : "bad";
      role.textContent = known ? ` — ${ROLES[f.role]}` : ` — ${f.problem ?? "not a file this page reads"}`;
      item.append(name, role);
      return item;
    }),
  );
  const squareDeal = chosen.some((f) => f.role === "sqd" || f.role === "sqk");
  $("boards-fields").hidden = squareDeal;
  $("squaredeal-fields").hidden = !squareDeal;
}

// #result's data-busy is "1" from a change until its verdict is shown ("0"): tests wait on it.
function busy(on) {
  $("result").dataset.busy = on ? "1" : "0";
}

function show(kind, text, lines = [], more = null) {
  const result = $("result");
  result.className = kind;
  result.textContent = text;
  $("detail").textContent = more ?? "";
  $("detail").hidden = more === null;
  $("lines").replaceChildren(
    ...lines.map((line) => {
      const div = document.createElement("div");
      div.className = line.startsWith("OK") ? "ok" : line.startsWith("FAIL") ? "fail" : line.startsWith("NOTE") ? "note" : "";
      div.textContent = line;
      return div;
    }),
  );
}

// What to verify, from the files and fields; a string says what is still missing.
function request() {
  const unknown = chosen.filter((f) => f.role === null || f.problem);
  if (unknown.length) {
    const f = unknown[0];
    throw new InputError(`${excerpt(f.name)}: ${f.problem ?? "not a file this page reads"} (it reads .sqd, .sqk, .key, .json, .pbn, .lin, .dlm, .dup and .txt files)`);
  }
  const of = (role) => chosen.filter((f) => f.role === role);
  const sessions = chosen.filter((f) => ROLES[f.role]?.startsWith("session file"));
  const [sqd, sqk, key] = [of("sqd"), of("sqk"), of("key")];
  if (sqd.length > 1 || sqk.length > 1 || key.length > 1) {
    const many = sqd.length > 1 ? sqd : sqk.length > 1 ? sqk : key;
    throw new InputError(`choose one ${ROLES[many[0].role]} file, not ${many.length} (${many.map((f) => f.name).join(", ")})`);
  }
  if (sqd.length || sqk.length) {
    if (key.length) throw new InputError(`${key[0].name} is a croupier-boards key, but the other files are a SquareDeal event`);
    const missing = [];
    if (!sqd.length) missing.push("the event file (.sqd)");
    if (!sqk.length) missing.push("the key file (.sqk) published after the event");
    if (!sessions.length) missing.push("the session files");
    if (missing.length) return `Still needed: ${missing.join(", ")}.`;
    const boards = pyStrip($("sq-boards").value);
    return { scheme: "squaredeal", sqd: sqd[0], sqk: sqk[0], files: sessions, boards: boards ? parseBoardRange(boards) : null };
  }
  const text = (id) => $(id).value;
  const missing = [];
  if (!sessions.length) missing.push("the session files");
  if (!key.length && !pyStrip(text("key"))) missing.push("the key (a .key file or typed)");
  if (!text("event")) missing.push("the event name");
  if (!pyStrip(text("plan")) && !pyStrip(text("boards"))) missing.push("the board plan (or, for croupier-boards/1, the boards)");
  if (!pyStrip(text("commitment"))) missing.push("the commitment");
  if (!text("dv")) missing.push("the delayed value");
  if (!pyStrip(text("session"))) missing.push("the session");
  if (missing.length) return `Still needed: ${missing.join(", ")}.`;
  if (key.length && pyStrip(text("key"))) throw new InputError(`give the key once: ${key[0].name} or the Key field, not both`);
  if (pyStrip(text("plan")) && pyStrip(text("boards"))) {
    throw new InputError("give the board plan (croupier-boards/2) or the boards (croupier-boards/1), not both");
  }
  const session = pyStrip(text("session"));
  if (!/^[0-9]{1,10}$/.test(session) || Number(session) < 1 || Number(session) > 2 ** 32 - 1) {
    throw new InputError(`bad session ${excerpt(session)}; expected a number 1 or more`);
  }
  return {
    scheme: "boards",
    key: parseKey(key.length ? new TextDecoder().decode(key[0].data) : text("key")),
    keyFile: key.length ? key[0].name : null,
    event: text("event"),
    plan: pyStrip(text("plan")) ? BoardPlan.parse(text("plan")) : null,
    boards: pyStrip(text("boards")) ? parseBoardRange(text("boards")) : null,
    commitmentHex: text("commitment"),
    delayedValue: text("dv"),
    session: Number(session),
    files: sessions,
  };
}

async function verifyNow() {
  const mine = ++run;
  clearTimeout(timer);
  timer = null;
  let outcome;
  try {
    const req = chosen.length ? request() : "Choose the files to check.";
    if (typeof req === "string") {
      show("wait", req);
      busy(false);
      return;
    }
    show("wait", "Checking…");
    const r = req.scheme === "squaredeal" ? await verifySquareDeal(req.sqd, req.sqk, req.files, req.boards) : await verifyBoards(req);
    outcome = [r.ok ? "ok" : "fail", verdict(r), reportLines(r), detail(r)];
  } catch (exc) {
    if (!(exc instanceof InputError)) console.error(exc);
    outcome = ["fail", `FAIL cannot verify: ${exc.message}`, [`error: ${exc.message}`]];
  }
  if (mine === run && timer === null) {
    show(...outcome);
    busy(false);
  }
}

function soon() {
  busy(true);
  clearTimeout(timer);
  timer = setTimeout(verifyNow, 250);
}

async function filesChanged() {
  busy(true);
  run++; // a verification still running belongs to the files before
  await readChosenFiles();
  verifyNow();
}

$("files").addEventListener("change", filesChanged);
for (const id of ["event", "plan", "boards", "commitment", "dv", "session", "key", "sq-boards"]) {
  $(id).addEventListener("input", soon);
}
const drop = $("drop");
drop.addEventListener("dragover", (e) => {
  e.preventDefault();
  drop.classList.add("over");
});
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", async (e) => {
  e.preventDefault();
  drop.classList.remove("over");
  $("files").files = e.dataTransfer.files;
  await filesChanged();
});
busy(false);
