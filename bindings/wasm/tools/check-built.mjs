// `npm pack` / `npm publish` run this first (the `prepack` script): the
// package is the built directories, so refuse to pack without them, or with
// a wrapper older than js/ (build.sh copies js/ into each).
import { existsSync, readFileSync } from "node:fs";

const root = new URL("../", import.meta.url);
const builds = {
  "pkg/": ["index.js", "index.d.ts", "node.js", "node.d.ts", "swaproute_wasm.js", "swaproute_wasm_bg.wasm"],
  "pkg-browser/": ["index.js", "index.d.ts", "browser.d.ts", "swaproute_wasm.js", "swaproute_wasm_bg.wasm"],
};
const problems = [];
for (const [dir, files] of Object.entries(builds)) {
  for (const file of files) {
    const built = new URL(dir + file, root);
    if (!existsSync(built)) {
      problems.push(`${dir}${file} is missing`);
      continue;
    }
    const source = new URL(`js/${file}`, root);
    if (existsSync(source) && !readFileSync(source).equals(readFileSync(built))) {
      problems.push(`${dir}${file} differs from js/${file}`);
    }
  }
}
if (problems.length > 0) {
  console.error(`swaproute: not packing a stale or missing build (run \`sh build.sh\` first):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
