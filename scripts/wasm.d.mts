/** The generated module source for src/parse/dlog-scan-wasm.ts, assembled from src/parse/dlog-scan.wat (scripts/wasm.mjs). */
export function assembled(): Promise<string>;
