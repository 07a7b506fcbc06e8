/**
 * The file format the bundled int8 tables share (the static sentence encoder's table and the learned
 * red-flag model): four magic bytes, the JSON header's length (uint32 LE), the header (UTF-8 JSON),
 * zero padding to a multiple of 4, each row's scale (float32 LE), then each row's values (int8, `width`
 * a row). A value read back is its int8 times its row's scale.
 */

/** The offset the scales start at: after the magic, the length, the header and its padding to 4. */
function scalesOffset(headerLength: number): number {
  return 8 + headerLength + ((4 - ((8 + headerLength) % 4)) % 4);
}

/** A file's bytes: `magic` (4 latin-1 characters), the header, then each row's scale and int8 values. */
export function encodeInt8Rows(magic: string, header: unknown, scales: Float32Array, rows: Int8Array): Buffer {
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const padding = Buffer.alloc(scalesOffset(json.length) - 8 - json.length);
  const scaleBytes = Buffer.alloc(scales.length * 4);
  scales.forEach((scale, index) => scaleBytes.writeFloatLE(scale, index * 4));
  return Buffer.concat([Buffer.from(magic, "latin1"), length, json, padding, scaleBytes, Buffer.from(rows.buffer)]);
}

/** What a file of the format holds, read back: its header, and its rows scaled back to floats. */
export interface Int8RowsFile<Header> {
  readonly header: Header;
  readonly values: Float32Array;
}

/**
 * Reads a file of the format: `shape` says, from the header, how many rows of what width it holds.
 * Throws `not a <what>` when the magic differs, `a <what> of the wrong size` when the bytes do not fit.
 */
export function decodeInt8Rows<Header>(
  bytes: Buffer,
  magic: string,
  what: string,
  shape: (header: Header) => { rows: number; width: number },
): Int8RowsFile<Header> {
  if (bytes.subarray(0, 4).toString("latin1") !== magic) throw new Error(`not a ${what}`);
  const length = bytes.readUInt32LE(4);
  const header = JSON.parse(bytes.subarray(8, 8 + length).toString("utf8")) as Header;
  const { rows, width } = shape(header);
  const scalesAt = scalesOffset(length);
  const valuesAt = scalesAt + rows * 4;
  if (bytes.byteLength !== valuesAt + rows * width) throw new Error(`a ${what} of the wrong size`);
  const quantised = new Int8Array(bytes.buffer, bytes.byteOffset + valuesAt, rows * width);
  const values = new Float32Array(rows * width);
  for (let row = 0; row < rows; row++) {
    const scale = bytes.readFloatLE(scalesAt + row * 4);
    for (let at = row * width; at < (row + 1) * width; at++) values[at] = scale * quantised[at]!;
  }
  return { header, values };
}
