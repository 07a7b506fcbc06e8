/**
 * A small writer of ONNX model files: the protobuf wire format (varints, length-delimited fields,
 * packed repeated numbers) and the handful of ONNX messages a graph of standard operators needs
 * (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto).
 *
 * Format reference: `onnx/onnx.proto3` (field numbers quoted beside each writer) and the protobuf
 * encoding guide. Only what test-support/tiny-encoder.ts uses is written; tensors are float32 or int64,
 * stored as `raw_data` (little-endian).
 */

/** Protobuf wire types. */
const enum Wire {
  VARINT = 0,
  LENGTH_DELIMITED = 2,
  FIXED32 = 5,
}

/** One protobuf message being written: fields are appended in the order they are given. */
class ProtoMessage {
  private readonly parts: Uint8Array[] = [];

  private varint(value: number | bigint): void {
    // Negative int64 values are written as their 64-bit two's complement, ten bytes long.
    let rest = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    do {
      let byte = Number(rest & 0x7fn);
      rest >>= 7n;
      if (rest !== 0n) byte |= 0x80;
      bytes.push(byte);
    } while (rest !== 0n);
    this.parts.push(Uint8Array.from(bytes));
  }

  private tag(field: number, wire: Wire): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number | bigint): this {
    this.tag(field, Wire.VARINT);
    this.varint(value);
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, Wire.FIXED32);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.parts.push(bytes);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, Wire.LENGTH_DELIMITED);
    this.varint(value.length);
    this.parts.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, value: ProtoMessage): this {
    return this.bytes(field, value.finish());
  }

  /** A packed repeated int64 field. */
  packedInts(field: number, values: readonly number[]): this {
    const inner = new ProtoMessage();
    for (const value of values) inner.varint(value);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

/** ONNX `TensorProto.DataType` values used here. */
export const enum OnnxType {
  FLOAT = 1,
  INT64 = 7,
}

/** A tensor's contents: float32 values or int64 values, with its shape. */
export type TensorData =
  | { readonly type: OnnxType.FLOAT; readonly dims: readonly number[]; readonly values: Float32Array }
  | { readonly type: OnnxType.INT64; readonly dims: readonly number[]; readonly values: readonly number[] };

/** `TensorProto`: dims = 1, data_type = 2, name = 8, raw_data = 9. */
function tensorProto(name: string, tensor: TensorData): ProtoMessage {
  const proto = new ProtoMessage();
  for (const dim of tensor.dims) proto.int(1, dim);
  proto.int(2, tensor.type);
  proto.string(8, name);
  if (tensor.type === OnnxType.FLOAT) {
    proto.bytes(9, new Uint8Array(tensor.values.buffer, tensor.values.byteOffset, tensor.values.byteLength));
  } else {
    proto.bytes(9, new Uint8Array(BigInt64Array.from(tensor.values, (value) => BigInt(value)).buffer));
  }
  return proto;
}

/** A node attribute: an int, a list of ints, a float or a tensor. */
export type AttributeValue =
  | { readonly int: number }
  | { readonly ints: readonly number[] }
  | { readonly float: number }
  | { readonly tensor: TensorData };

/** `AttributeProto`: name = 1, f = 2, i = 3, t = 5, ints = 8, type = 20 (FLOAT 1, INT 2, TENSOR 4, INTS 7). */
function attributeProto(name: string, value: AttributeValue): ProtoMessage {
  const proto = new ProtoMessage().string(1, name);
  if ("int" in value) return proto.int(3, value.int).int(20, 2);
  if ("ints" in value) return proto.packedInts(8, value.ints).int(20, 7);
  if ("float" in value) return proto.float(2, value.float).int(20, 1);
  return proto.message(5, tensorProto("", value.tensor)).int(20, 4);
}

/** A graph input or output: its element type and its shape, a dimension being a size or a symbolic name. */
export interface ValueInfo {
  readonly name: string;
  readonly type: OnnxType;
  readonly shape: ReadonlyArray<number | string>;
}

/** `ValueInfoProto` (name = 1, type = 2) → `TypeProto.tensor_type` (1) → elem_type 1, shape 2 → dim 1 → dim_value 1 / dim_param 2. */
function valueInfoProto(info: ValueInfo): ProtoMessage {
  const shape = new ProtoMessage();
  for (const dim of info.shape) {
    const dimension = typeof dim === "number" ? new ProtoMessage().int(1, dim) : new ProtoMessage().string(2, dim);
    shape.message(1, dimension);
  }
  const tensorType = new ProtoMessage().int(1, info.type).message(2, shape);
  return new ProtoMessage().string(1, info.name).message(2, new ProtoMessage().message(1, tensorType));
}

/**
 * Builds an ONNX graph node by node. Each operator call returns the name of its output, so a graph
 * reads as the arithmetic it computes.
 */
export class OnnxGraph {
  private readonly nodes: ProtoMessage[] = [];
  private readonly initializers: ProtoMessage[] = [];
  private readonly inputs: ValueInfo[] = [];
  private readonly outputs: ValueInfo[] = [];
  private counter = 0;

  /** Declares a graph input; returns its name. */
  input(info: ValueInfo): string {
    this.inputs.push(info);
    return info.name;
  }

  /** Declares a graph output computed under `value`'s name by an Identity node. */
  output(info: ValueInfo, value: string): void {
    this.node("Identity", [value], {}, info.name);
    this.outputs.push(info);
  }

  /** A constant tensor (an initializer); returns its name. */
  constant(name: string, tensor: TensorData): string {
    this.initializers.push(tensorProto(name, tensor));
    return name;
  }

  /** `NodeProto`: input = 1, output = 2, name = 3, op_type = 4, attribute = 5. Returns the output's name. */
  node(op: string, inputs: readonly string[], attributes: Readonly<Record<string, AttributeValue>> = {}, out?: string) {
    const output = out ?? `${op.toLowerCase()}_${this.counter++}`;
    const proto = new ProtoMessage();
    for (const input of inputs) proto.string(1, input);
    proto.string(2, output).string(3, `${op}_${this.counter++}`).string(4, op);
    for (const [name, value] of Object.entries(attributes)) proto.message(5, attributeProto(name, value));
    this.nodes.push(proto);
    return output;
  }

  /**
   * The model file: `ModelProto` with ir_version = 1 (8), opset_import = 8 (default domain, `opset`),
   * producer_name = 2, graph = 7; `GraphProto` with node = 1, name = 2, initializer = 5, input = 11,
   * output = 12.
   */
  serialize(opset = 17): Uint8Array {
    const graph = new ProtoMessage();
    for (const node of this.nodes) graph.message(1, node);
    graph.string(2, "tiny");
    for (const initializer of this.initializers) graph.message(5, initializer);
    for (const input of this.inputs) graph.message(11, valueInfoProto(input));
    for (const output of this.outputs) graph.message(12, valueInfoProto(output));
    return new ProtoMessage()
      .int(1, 8)
      .string(2, "anamnesis-test-support")
      .message(7, graph)
      .message(8, new ProtoMessage().string(1, "").int(2, opset))
      .finish();
  }
}
