export const INSTALL_HINT: string;
export function serverCommand(): string[];
export interface RunningServer { readonly url: string; readonly http: number; readonly tcp: number; readonly dir: string; readonly pid: number; stop(): Promise<void> }
export function startServer(): Promise<RunningServer>;
export function startCluster(n?: number): Promise<{ servers: RunningServer[]; stop(): Promise<void> }>;
export function serverVersion(url: string): Promise<string>;
export function sql(url: string, query: string, body?: Buffer | string, settings?: Record<string, string>): Promise<string>;
export class RowBinary {
  string(s: string): void;
  float64(x: number): void;
  uint64(x: number | bigint): void;
  int64(x: number | bigint): void;
  bytes(): Buffer;
}
export function serverInstalled(): boolean;
export function installedPackageVersion(): string | null;
export function processCpuSeconds(pid: number): number;
