// SPDX-License-Identifier: GPL-3.0-or-later
// A byte stream (a File's, a fetch's) read as lines of UTF-8 text, piece by piece, so that a file
// of any size is never held whole: puzzle CSVs and PGN databases are imported through it.

/** A "line" longer than this many characters without a newline is cut there (no text file has one). */
const kMaxHeldChars = 16_384;

/**
 * The lines of a byte stream (UTF-8, `\n` or `\r\n`), decoded piece by piece: at most one line
 * and one chunk are held. `onBytes` counts the bytes read (for a progress bar).
 */
export async function* streamLines(stream: ReadableStream<Uint8Array>, onBytes: (bytes: number) => void = () => {}): AsyncGenerator<string> {
  let bytes = 0;
  const counted = stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        onBytes(bytes);
        controller.enqueue(chunk);
      },
    }),
  );
  const reader = counted.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>).getReader();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += value;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      yield pending.slice(0, newline).replace(/\r$/, '');
      pending = pending.slice(newline + 1);
    }
    // A "line" that never ends is no CSV: it is cut off rather than held whole.
    if (pending.length > kMaxHeldChars) {
      yield pending;
      pending = '';
    }
  }
  if (pending) yield pending.replace(/\r$/, '');
}
