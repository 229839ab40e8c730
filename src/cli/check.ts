import type { Command } from 'commander';
import type { RunCommandIo } from './history.js';
export function registerCheckCommand(program: Command, io: RunCommandIo, setCode: (code: number) => void): void {
  void program; void io; void setCode;
}
