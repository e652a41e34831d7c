// Pressing the page's keys and reading the app through window.oxoRead, for the page's checks
// (web_page.mjs, web_device.mjs).
// SPDX-License-Identifier: MIT

import * as oxo from "./oxopage.mjs";

export const press = (page, name) => oxo.key(page, name).click();

export async function menu(page, want) {
  return oxo.until(page, want, { read: "menu" });
}

export const read = (page, what) => page.evaluate((what) => window.oxoRead[what](), what);
