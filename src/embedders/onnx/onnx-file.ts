/**
 * Writing an ONNX model file: a graph of nodes over named tensors, the weights as initializers. Field numbers are
 * those of onnx.proto (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto).
 */
import { bytes, type Chunks, float, int, ints, join } from "./protobuf.ts";

export const DTYPE = { float: 1, uint8: 2, int8: 3, int64: 7 } as const;
export type DType = keyof typeof DTYPE;

export type Attribute = number | readonly number[] | { float: number };

export interface Node {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attributes?: Record<string, Attribute>;
  /** `com.microsoft` for onnxruntime's own operators. */
  domain?: string;
}

export interface Initializer {
  name: string;
  dtype: DType;
  dims: readonly number[];
  /** Little-endian raw values. */
  data: Uint8Array;
}

export interface ValueInfo {
  name: string;
  dtype: DType;
  /** A number is a fixed size, a string a named free one (`batch`). */
  shape: readonly (number | string)[];
}

export interface Graph {
  name: string;
  nodes: readonly Node[];
  initializers: readonly Initializer[];
  inputs: readonly ValueInfo[];
  outputs: readonly ValueInfo[];
}

const ATTR = { float: 1, int: 2, ints: 7 } as const;

function attribute(name: string, value: Attribute): Chunks {
  if (typeof value === "number") return [...bytes(1, name), ...int(20, ATTR.int), ...int(3, value)];
  if ("float" in value) return [...bytes(1, name), ...int(20, ATTR.float), ...float(2, value.float)];
  return [...bytes(1, name), ...int(20, ATTR.ints), ...ints(8, value)];
}

function node(n: Node, index: number): Chunks {
  return [
    ...n.inputs.flatMap((i) => bytes(1, i)),
    ...n.outputs.flatMap((o) => bytes(2, o)),
    ...bytes(3, `${n.op}_${index}`),
    ...bytes(4, n.op),
    ...Object.entries(n.attributes ?? {}).flatMap(([k, v]) => bytes(5, attribute(k, v))),
    ...(n.domain ? bytes(7, n.domain) : []),
  ];
}

function tensor(t: Initializer): Chunks {
  return [...ints(1, t.dims), ...int(2, DTYPE[t.dtype]), ...bytes(8, t.name), ...bytes(9, t.data)];
}

function valueInfo(v: ValueInfo): Chunks {
  const dims = v.shape.map((d) => bytes(1, typeof d === "number" ? int(1, d) : bytes(2, d)));
  const tensorType = [...int(1, DTYPE[v.dtype]), ...bytes(2, dims.flat())];
  return [...bytes(1, v.name), ...bytes(2, bytes(1, tensorType))];
}

export function onnxFile(graph: Graph, opsets: Record<string, number>): Uint8Array {
  const g: Chunks = [
    ...graph.nodes.flatMap((n, i) => bytes(1, node(n, i))),
    ...bytes(2, graph.name),
    ...graph.initializers.flatMap((t) => bytes(5, tensor(t))),
    ...graph.inputs.flatMap((v) => bytes(11, valueInfo(v))),
    ...graph.outputs.flatMap((v) => bytes(12, valueInfo(v))),
  ];
  const model: Chunks = [
    ...int(1, 8),
    ...bytes(2, "cairn"),
    ...bytes(7, g),
    ...Object.entries(opsets).flatMap(([domain, version]) => bytes(8, [...bytes(1, domain), ...int(2, version)])),
  ];
  return join(model);
}
