/** Somewhere text goes: process.stdout, or a buffer in tests. */
export interface TextSink {
  write(text: string): void;
}
