// `swaproute/node`: the same API as index.js, loaded synchronously.
export * from "./index.js";
export { default } from "./index.js";
