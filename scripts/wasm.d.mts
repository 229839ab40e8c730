/** The generated module source for src/parse/fast/dlog-scan-wasm.ts, assembled from src/parse/fast/dlog-scan.wat (scripts/wasm.mjs). */
export function assembled(): Promise<string>;
