// Run browser checks in Debian's Chromium: one launch, a fresh context (fresh localStorage) and
// page per check, every console error, page error and failed request a failure.
// SPDX-License-Identifier: MIT
//
//   node host_tests/web/runner.mjs --site DIR --checks FILE.mjs --only "test_a test_b"
//        [--shots DIR] [--timeout S] [--chromium PATH]
//
// Runs the named `export async function test_<name>(t)` of FILE.mjs in order, DIR served over
// http on 127.0.0.1 (browser.mjs). `t` holds: page (fresh, not navigated) in context (fresh
// storage and cache), url(path) of a file of DIR, assert (node:assert/strict), log(...) (a line
// of output), newPage() in t.context, newContext(options) (watched, closed with it), requests
// the server answered in this check ({method, path, status, bytes}), site (DIR, absolute).
// A check fails if it throws, outlasts its bound (--timeout, 30 s, or `test_x.timeout = 60`
// after it; Playwright's own waits give up at 4/5 of it, saying what they waited for), or if a
// page of its contexts logs console.error, throws, or has a request fail or answer 400 or more.
//
// Output: host_tests/checkitems.py's protocol (RUN, PASS or FAIL, SUMMARY); a failure with the
// error, the problems and a screenshot of each page (in --shots). The run's bound is the
// caller's, whose SIGTERM makes Playwright close Chromium.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { parseArgs, format } from "node:util";
import { pathToFileURL } from "node:url";

import { CHROMIUM, launch, serve } from "./browser.mjs";

const { values: opts } = parseArgs({
  options: {
    site: { type: "string" },
    checks: { type: "string" },
    only: { type: "string" },
    shots: { type: "string" },
    timeout: { type: "string", default: "30" },
    chromium: { type: "string", default: CHROMIUM },
  },
});
if (!opts.site || !opts.checks || !opts.only) {
  console.error("usage: runner.mjs --site DIR --checks FILE.mjs --only NAMES [--shots DIR]");
  process.exit(2);
}
const say = (line) => process.stdout.write(line + "\n");

class CheckTimeout extends Error {}

// One line of what went wrong in the page, and where.
function problemOf(kind, text, where) {
  return where ? `${kind}: ${text} (${where})` : `${kind}: ${text}`;
}

// Watch a context for what fails a check: console errors, uncaught page errors (their stacks go
// to `details`), requests that failed or got an HTTP error status. Only while `watching.on`.
function watch(context, problems, details, watching) {
  const add = (line) => watching.on && problems.push(line);
  context.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const loc = msg.location();
    const where = loc.url ? `${loc.url}:${loc.lineNumber + 1}` : "";
    add(problemOf("console.error", msg.text(), where));
  });
  context.on("weberror", (webError) => {
    const err = webError.error();
    const page = webError.page();
    add(problemOf("page error", `${err.name}: ${err.message}`, page ? page.url() : ""));
    if (watching.on && err.stack) details.push(err.stack);
  });
  context.on("requestfailed", (request) => {
    const why = request.failure() ? request.failure().errorText : "failed";
    add(problemOf("request failed", `${request.method()} ${request.url()}`, why));
  });
  context.on("response", (response) => {
    if (response.status() < 400) return;
    const request = response.request();
    add(problemOf(`HTTP ${response.status()}`, `${request.method()} ${response.url()}`));
  });
}

// Chromium also logs a console error for a failed load; when the request's own line says it,
// that echo goes. So does the 404 of the browser's own /favicon.ico probe, which shows only as
// that console line, and only if the check lasts until the probe is answered: counting it would
// make a page without an icon pass or fail by timing.
function withoutEchoes(problems) {
  const loaded = new Set(
    problems.map((line) => /^(?:HTTP \d+|request failed): \S+ (\S+)/.exec(line)?.[1]),
  );
  return problems.filter((line) => {
    const echo = /^console\.error: Failed to load resource: .* \((.*):\d+\)$/.exec(line);
    return !(echo && (loaded.has(echo[1]) || new URL(echo[1]).pathname === "/favicon.ico"));
  });
}

async function runCheck(name, fn, browser, server, shots) {
  const seconds = Number(fn.timeout ?? opts.timeout);
  const problems = [];
  const details = [];
  const contexts = [];
  const watching = { on: true };
  const firstRequest = server.requests.length;

  async function newContext(options = {}) {
    const context = await browser.newContext(options);
    // Playwright's own waits give up first, with their message saying what they waited for.
    context.setDefaultTimeout(seconds * 800);
    watch(context, problems, details, watching);
    contexts.push(context);
    return context;
  }

  const context = await newContext();
  const t = {
    context,
    page: await context.newPage(),
    assert,
    site: path.resolve(opts.site),
    url: (where = "") => new URL(where, server.url).href,
    log: (...args) => say(format(...args)),
    newContext,
    newPage: () => context.newPage(),
    get requests() {
      return server.requests.slice(firstRequest);
    },
  };

  let error = null;
  let timer;
  const why = `check timed out after ${seconds} s (set ${name}.timeout for more)`;
  const expiry = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(why)), seconds * 1000);
  });
  const running = Promise.resolve().then(() => fn(t));
  running.catch(() => {}); // after a timeout it fails as its context closes: already reported
  await Promise.race([running, expiry]).catch((err) => { error = err; });
  clearTimeout(timer);

  const unexpected = withoutEchoes(problems);
  const failed = error !== null || unexpected.length > 0;
  if (failed) {
    say(`FAIL ${name}`);
    if (error instanceof CheckTimeout) say(error.message);
    else if (error !== null) say(error && error.stack ? error.stack : String(error));
    for (const line of unexpected) say(line);
    for (const stack of details) say(`-- in the page:\n${stack}`);
    await screenshots(name, contexts, shots);
    const reasons = (error === null ? [] : [oneLine(error)]).concat(unexpected);
    const more = reasons.length > 1 ? ` (and ${reasons.length - 1} more above)` : "";
    say(reasons[0] + more);
  } else {
    say(`PASS ${name}`);
  }
  watching.on = false; // what closing the contexts cancels is not the check's doing
  await Promise.all(contexts.map((c) => c.close().catch(() => {})));
  return !failed;
}

function oneLine(error) {
  if (error instanceof CheckTimeout) return error.message;
  if (!(error instanceof Error)) return `thrown: ${String(error)}`;
  const message = error.message.replace(/\s+/g, " ").trim(); // node:assert's spans lines
  return `${error.name}: ${message.length > 200 ? message.slice(0, 200) + "..." : message}`;
}

async function screenshots(name, contexts, shots) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  let n = 0;
  for (const context of contexts) {
    for (const page of context.pages()) {
      n += 1;
      const file = path.join(path.resolve(shots), n === 1 ? `${name}.png` : `${name}-${n}.png`);
      try {
        await page.screenshot({ path: file, timeout: 5000 });
        say(`screenshot: ${file} (${page.url()})`);
      } catch (err) {
        say(`screenshot of ${page.url()} failed: ${err.message.split("\n")[0]}`);
      }
    }
  }
}

async function main() {
  const module = await import(pathToFileURL(path.resolve(opts.checks)).href);
  const names = opts.only.split(/\s+/).filter(Boolean);

  const server = await serve(opts.site);
  const started = performance.now();
  const browser = await launch({ executablePath: opts.chromium });
  const ms = Math.round(performance.now() - started);
  say(`BROWSER Chromium ${browser.version()} (${opts.chromium}) launched in ${ms} ms`);
  say(`SERVE ${path.resolve(opts.site)} at ${server.url}`);
  // The caller's bound on the whole run (checkitems.py) stops it with SIGTERM: Playwright then
  // closes Chromium but leaves this process waiting on the check; it exits once that is done.
  process.once("SIGTERM", () => browser.close().finally(() => process.exit(143)));

  let passed = 0;
  for (const name of names) {
    say(`RUN ${name}`);
    if (typeof module[name] === "function") {
      passed += await runCheck(name, module[name], browser, server, opts.shots);
    } else {
      say(`FAIL ${name}\n${opts.checks} exports no function ${name}`);
    }
  }
  say(`SUMMARY ${passed} ${names.length - passed}`);
  await browser.close();
  await server.close();
  return passed < names.length ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
    setTimeout(() => process.exit(code), 2000).unref(); // a check's leftover timer cannot hold it
  },
  (err) => {
    console.error(err && err.stack ? err.stack : String(err));
    process.exit(2);
  },
);
