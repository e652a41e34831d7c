// What the browser checks (runner.mjs) and the web benchmarks stand on: a folder served over
// http on 127.0.0.1, and Debian's Chromium launched by playwright-core from web/node_modules.
// SPDX-License-Identifier: MIT
//
// http, not file://: module scripts and WebAssembly.instantiateStreaming refuse file:// pages.

import fs from "node:fs/promises";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const NODE_MODULES = path.join(ROOT, "web", "node_modules");
export const CHROMIUM = "/usr/bin/chromium";

// Every launch's flags (beside Playwright's); without the background-networking ones Chromium
// keeps trying to reach Google's hosts.
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

// Chromium refuses a module script not served as JavaScript, and instantiateStreaming a .wasm
// not served as application/wasm; the rest (the bundles) the page fetches as bytes.
const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
};
const OTHER = "application/octet-stream";

/**
 * Serve the folder `root` on 127.0.0.1 at a free port: {url (ending with "/"), requests (every
 * answered one in order: {method, path, status, bytes}), close()}. A folder answers with its
 * index.html. `cacheControl`: no-cache, so a reload asks again, unless the benchmark's warm
 * reload asks for "max-age=600", as GitHub Pages sends.
 */
export async function serve(root, { cacheControl = "no-cache" } = {}) {
  root = path.resolve(root);
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const answer = (status, type, body) => {
      res.writeHead(status, {
        "Content-Type": type,
        "Content-Length": body.length,
        "Cache-Control": cacheControl,
      });
      res.end(req.method === "HEAD" ? undefined : body);
      const where = req.url.split("?")[0];
      requests.push({ method: req.method, path: where, status, bytes: body.length });
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      answer(405, "text/plain", Buffer.from("only GET and HEAD\n"));
      return;
    }
    let file;
    try {
      file = path.join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
    } catch {
      answer(400, "text/plain", Buffer.from("bad path\n"));
      return;
    }
    if (file !== root && !file.startsWith(root + path.sep)) {
      answer(403, "text/plain", Buffer.from("outside the served folder\n"));
      return;
    }
    try {
      if ((await fs.stat(file)).isDirectory()) file = path.join(file, "index.html");
      const body = await fs.readFile(file);
      answer(200, MIME[path.extname(file).toLowerCase()] || OTHER, body);
    } catch {
      answer(404, "text/plain", Buffer.from("not found\n"));
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Launch Chromium (`executablePath`) headless with FLAGS through web/node_modules' playwright-core
 * (saying how to install it if missing), with a fresh profile under $TMPDIR that
 * browser.close() removes.
 */
export async function launch({ executablePath }) {
  let playwright;
  try {
    playwright = createRequire(path.join(NODE_MODULES, "..", "package.json"))("playwright-core");
  } catch (err) {
    throw new Error(
      `playwright-core is not installed in ${NODE_MODULES} (python3 tools/webtools.py ` +
        `install, or make test, installs it): ${err.message}`,
    );
  }
  const options = { executablePath, headless: true, args: FLAGS, timeout: 30000 };
  return playwright.chromium.launch(options);
}
