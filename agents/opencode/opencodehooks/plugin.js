// codeman's OpenCode plugin: it forwards the events codeman reads to
// codeman's hook handler, one run of `<handler> <event>` with the event's
// JSON on stdin. `codeman hooks install --agent opencode` writes this file
// and `codeman hooks uninstall --agent opencode` removes it; both leave an
// edited copy alone.
import { spawn } from "node:child_process";

const command = "__CODEMAN_COMMAND__";

// A run is killed after runTimeout ms; past maxQueued waiting runs an
// event is dropped; maxSessions bounds each map below.
const runTimeout = 5000;
const maxQueued = 64;
const maxSessions = 256;
const maxText = 512;

// children are the sessions with a parent (the task tool's): their idle
// is not the turn's end, and their work is the parent's.
const children = new Map();
// ended is why a session's turn ended, when an event before its
// session.idle said so already: session.error's name, or "rejected".
const ended = new Map();
// last is the last event forwarded for a session, so that a repeat of a
// busy status or of session.idle costs no run.
const last = new Map();

function remember(map, key, value) {
  map.delete(key);
  map.set(key, value);
  if (map.size > maxSessions) map.delete(map.keys().next().value);
}

function text(v) {
  return typeof v === "string" ? v.slice(0, maxText) : undefined;
}

// Runs go one at a time, in order, so that the handler stamps markers in
// the order of the events.
let queue = Promise.resolve();
let queued = 0;

function run(name, payload) {
  return new Promise((resolve) => {
    let timer;
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    try {
      const child = spawn(command[0], [...command.slice(1), name], {
        stdio: ["pipe", "ignore", "ignore"],
        detached: true,
      });
      timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch {}
        done();
      }, runTimeout);
      child.on("error", done);
      child.on("exit", done);
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify(payload));
    } catch {
      done();
    }
  });
}

function forward(name, properties) {
  const sid = properties.sessionID;
  if (name === "session.idle" || (name === "session.status" && properties.status.type === "busy")) {
    const key = name === "session.idle" ? name : "busy";
    if (sid !== undefined && last.get(sid) === key) return;
  }
  if (sid !== undefined) remember(last, sid, name === "session.status" ? properties.status.type : name);
  if (queued >= maxQueued) return;
  queued++;
  queue = queue
    .then(() => run(name, { type: name, properties }))
    .catch(() => {})
    .finally(() => {
      queued--;
    });
}

function onEvent(event) {
  const p = (event && event.properties) || {};
  const sid = text(p.sessionID);
  switch (event && event.type) {
    case "session.created":
    case "session.updated": {
      const info = p.info || {};
      if (info.id && info.parentID) remember(children, info.id, true);
      return;
    }
    case "session.deleted":
      if (p.info && p.info.id) {
        children.delete(p.info.id);
        ended.delete(p.info.id);
        last.delete(p.info.id);
      }
      return;
    case "session.status": {
      const type = p.status && p.status.type;
      if (children.has(sid) || (type !== "busy" && type !== "retry")) return;
      ended.delete(sid);
      const status = { type };
      if (type === "retry") status.message = text(p.status.message);
      forward("session.status", { sessionID: sid, status });
      return;
    }
    case "session.idle": {
      if (children.has(sid)) return;
      const properties = { sessionID: sid };
      if (ended.has(sid)) properties.ended = ended.get(sid);
      forward("session.idle", properties);
      return;
    }
    case "session.error": {
      if (children.has(sid)) return;
      const e = p.error || {};
      const name = text(e.name) || "UnknownError";
      if (sid !== undefined) remember(ended, sid, name);
      forward("session.error", { sessionID: sid, error: { name, data: { message: text(e.data && e.data.message) } } });
      return;
    }
    // A subagent's prompts are on screen as well: they are forwarded.
    case "permission.asked": {
      const md = p.metadata || {};
      const patterns = Array.isArray(p.patterns) ? p.patterns.slice(0, 4).map(text) : undefined;
      forward("permission.asked", {
        sessionID: sid,
        permission: text(p.permission),
        metadata: { command: text(md.command), filepath: text(md.filepath) },
        patterns,
      });
      return;
    }
    case "permission.replied": {
      const reply = text(p.reply);
      if (reply === "reject" && sid !== undefined && !children.has(sid)) remember(ended, sid, "rejected");
      forward("permission.replied", { sessionID: sid, reply });
      return;
    }
  }
}

function onTool(name, input, output) {
  const sid = text(input && input.sessionID);
  const tool = text(input && input.tool);
  if (tool === "question") {
    const q = output && output.args && Array.isArray(output.args.questions) ? output.args.questions[0] : undefined;
    const args = q ? { questions: [{ question: text(q.question) }] } : undefined;
    forward(name, { sessionID: sid, tool, args });
    return;
  }
  if (children.has(sid)) return;
  forward(name, { sessionID: sid, tool });
}

function guard(f) {
  return async (...args) => {
    try {
      f(...args);
    } catch {}
  };
}

export const CodemanPlugin = async () => ({
  event: guard(({ event }) => onEvent(event)),
  "chat.message": guard((input) => {
    const sid = text(input && input.sessionID);
    if (children.has(sid)) return;
    ended.delete(sid);
    forward("chat.message", { sessionID: sid });
  }),
  "tool.execute.before": guard((input, output) => onTool("tool.execute.before", input, output)),
  "tool.execute.after": guard((input) => onTool("tool.execute.after", input)),
});
