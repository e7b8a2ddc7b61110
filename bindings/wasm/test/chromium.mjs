// The Chromium the browser tests drive (through playwright-core): $CHROMIUM
// when set (only it), else Debian's `chromium`. Without one they skip with a message, unless
// SWAPROUTE_REQUIRE_BROWSER=1 (.ci/run sets it, having installed one): then
// its absence is a failure.
import { existsSync } from "node:fs";

const candidates = process.env.CHROMIUM ? [process.env.CHROMIUM] : ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
export const executable = candidates.find((path) => existsSync(path));

const missing = "no Chromium: install Debian's `chromium` or set CHROMIUM to run the browser tests";

if (!executable && process.env.SWAPROUTE_REQUIRE_BROWSER === "1") {
  throw new Error(`${missing} (SWAPROUTE_REQUIRE_BROWSER=1)`);
}

/** `test(..., { skip })`: the message when there is no Chromium, else `false`. */
export const skipBrowser = executable ? false : missing;
