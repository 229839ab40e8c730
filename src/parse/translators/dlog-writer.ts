import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InputFile } from '../files.js';
import type { ClassName } from '../records.js';
import type { ClassSink } from '../reader.js';

/**
 * Writers of records as dlog (SPEC §1), for `distalyze translate`. Both follow
 * the reader's instance rules: each raw file starts in the instance named by
 * its relative path, and `instance(id)` switches until the file ends.
 *
 * Times and values are written with JavaScript's shortest round-trip form, so
 * reading the output back gives the very same numbers. TAB, CR and LF inside
 * names and ids would break the line format and become spaces.
 */

export function dlogEvent(t: number, name: string): string {
  return `E\t${t}\t${field(name)}\n`;
}

export function dlogState(t: number, name: string, value: number): string {
  return `S\t${t}\t${field(name)}\t${value}\n`;
}

export function dlogInstance(id: string, kind?: string | null): string {
  return kind == null ? `I\t${field(id)}\n` : `I\t${field(id)}\t${field(kind)}\n`;
}

function field(text: string): string {
  return /[\t\r\n]/.test(text) ? text.replace(/[\t\r\n]/g, ' ') : text;
}

/** Records as one dlog stream, an `I` line wherever the instance changes. */
export class DlogStreamWriter implements ClassSink {
  private current = '';
  /** The instance last announced with an `I` line (null: none yet). */
  private written: string | null = null;
  private buffer = '';
  instances = new Set<string>();
  /** The first kind given per instance (it sticks, as when reading). */
  private readonly kinds = new Map<string, string>();

  constructor(private readonly write: (text: string) => void, private readonly bufferSize = 64 * 1024) {}

  beginFile(file: InputFile, _className: ClassName): void {
    this.current = file.relativePath;
  }

  endFile(): void {
    this.flush();
  }

  instance(id: string, kind?: string): void {
    this.current = id;
    if (kind !== undefined && !this.kinds.has(id)) this.kinds.set(id, kind);
  }

  event(t: number, name: string): void {
    this.put(dlogEvent(t, name));
  }

  state(t: number, name: string, value: number): void {
    this.put(dlogState(t, name, value));
  }

  flush(): void {
    if (this.buffer.length === 0) return;
    const text = this.buffer;
    this.buffer = '';
    this.write(text);
  }

  private put(record: string): void {
    if (this.written !== this.current) {
      this.written = this.current;
      this.instances.add(this.current);
      this.buffer += dlogInstance(this.current, this.kinds.get(this.current));
    }
    this.buffer += record;
    if (this.buffer.length >= this.bufferSize) this.flush();
  }
}

/**
 * Records as one `.dlog` file per instance in a directory. Each file starts
 * with the instance's `I` line, so reading the directory back gives the same
 * instance ids whatever the file names. Records are buffered per instance and
 * appended when the buffers grow past `bufferSize` characters and at the end,
 * so an instance fed by many raw files (a trace id) still makes one file, and
 * a million instances never hold a million open files.
 */
export class DlogDirectoryWriter implements ClassSink {
  private currentId = '';
  private current: InstanceBuffer | null = null;
  private readonly byId = new Map<string, InstanceBuffer>();
  private readonly names = new FileNames();
  private buffered = 0;

  constructor(private readonly dir: string, private readonly bufferSize = 16 * 1024 * 1024) {}

  /** Instance ids and their file names, in order of first record. */
  files(): ReadonlyMap<string, string> {
    return new Map([...this.byId].map(([id, b]) => [id, b.fileName]));
  }

  beginFile(file: InputFile, _className: ClassName): void {
    this.instance(file.relativePath);
  }

  endFile(): void {
    if (this.buffered >= this.bufferSize) this.flush();
  }

  instance(id: string, kind?: string): void {
    if (id !== this.currentId) {
      this.currentId = id;
      this.current = null;
    }
    if (kind !== undefined) {
      const b = this.buffer();
      if (b.kind === null) b.kind = kind;
    }
  }

  event(t: number, name: string): void {
    this.put(dlogEvent(t, name));
  }

  state(t: number, name: string, value: number): void {
    this.put(dlogState(t, name, value));
  }

  /** Write every buffered record out. */
  flush(): void {
    for (const b of this.byId.values()) {
      if (b.chunks.length === 0) continue;
      const text = b.chunks.join('');
      b.chunks = [];
      const path = join(this.dir, b.fileName);
      if (b.created) appendFileSync(path, text);
      else {
        writeFileSync(path, dlogInstance(b.id, b.kind) + text, { flag: 'wx' });
        b.created = true;
      }
    }
    this.buffered = 0;
  }

  private buffer(): InstanceBuffer {
    let b = this.current;
    if (b === null) {
      b = this.byId.get(this.currentId) ?? null;
      if (b === null) {
        b = { id: this.currentId, kind: null, fileName: this.names.claim(this.currentId), chunks: [], created: false };
        this.byId.set(this.currentId, b);
      }
      this.current = b;
    }
    return b;
  }

  private put(record: string): void {
    const b = this.buffer();
    b.chunks.push(record);
    this.buffered += record.length;
    if (this.buffered >= this.bufferSize) this.flush();
  }
}

interface InstanceBuffer {
  readonly id: string;
  /** Written in the file's `I` line; a kind given after the first flush is lost, so the first given sticks. */
  kind: string | null;
  readonly fileName: string;
  chunks: string[];
  created: boolean;
}

/**
 * Safe, unique file names for instance ids: characters other than letters,
 * digits, `.`, `_`, `-` become `_`; a leading dot becomes `_` (the reader skips
 * hidden files); long ids are cut; names are unique ignoring case (macOS and
 * Windows file systems), the later comer getting `~2`, `~3`… in order of first
 * appearance, so the same input always gives the same names.
 */
export class FileNames {
  private readonly taken = new Set<string>();

  claim(id: string): string {
    let base = id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\./, '_').slice(0, 120);
    if (base.length === 0) base = '_';
    if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(base)) base = `_${base}`;
    let name = `${base}.dlog`;
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) name = `${base}~${n}.dlog`;
    this.taken.add(name.toLowerCase());
    return name;
  }
}
