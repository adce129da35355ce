// Typed arrays reused from one call to the next inside one thread. A pool worker runs one task at a time, and the
// image tasks used to allocate tens of megabytes of fresh Float32Arrays per 1024² image (contour: grey, blur,
// gradients, suppressed maxima): each one is fresh memory from the kernel (page faults in the worker), freed later
// on V8's background threads, and their sum is "external memory pressure" that starts a GC about once per image.
// Arrays up to MAX_REUSED_BYTES (a Float32Array of MAX_REUSED elements; an RGBA plane of 1280×960) are kept per
// name and handed out again (contents are whatever the last user left: callers that need zeros fill them); larger
// ones are allocated fresh every time, so a worker never keeps more than a few such arrays of a ~1.2-megapixel image.
// An array from a Scratch is valid until the next request for the same name: a function that returns one says so.

/** largest Float32Array (elements) a Scratch keeps for reuse: 1024² plus a margin for 1280×960 and similar */
export const MAX_REUSED = 1_310_720;
/** the same limit in bytes, for every kind (a Uint8Array RGBA plane of 1024² fits, a Float64Array of 1024² does not) */
export const MAX_REUSED_BYTES = MAX_REUSED * 4;

type Kind = 'f32' | 'f64' | 'u8' | 'i32';
type ArrayOf<K extends Kind> = K extends 'f32' ? Float32Array : K extends 'f64' ? Float64Array : K extends 'u8' ? Uint8Array : Int32Array;
const MAKE = { f32: Float32Array, f64: Float64Array, u8: Uint8Array, i32: Int32Array } as const;

export class Scratch {
  private readonly kept = new Map<string, Float32Array | Float64Array | Uint8Array | Int32Array>();

  /** an array of exactly n elements of the kind; its contents are unspecified (fill it if zeros are needed) */
  get<K extends Kind>(kind: K, name: string, n: number): ArrayOf<K> {
    const Make = MAKE[kind];
    const most = MAX_REUSED_BYTES / Make.BYTES_PER_ELEMENT;
    if (n > most) return new Make(n) as ArrayOf<K>;
    const key = `${kind}:${name}`;
    let a = this.kept.get(key);
    if (!a || a.length < n) {
      a = new Make(n <= most / 2 ? n : most);
      this.kept.set(key, a);
    }
    return (a.length === n ? a : a.subarray(0, n)) as ArrayOf<K>;
  }

  /** bytes this scratch keeps */
  get bytes(): number {
    let b = 0;
    for (const a of this.kept.values()) b += a.byteLength;
    return b;
  }

  /** drop every kept array (the memory goes back at the next GC) */
  clear(): void {
    this.kept.clear();
  }
}

/** the calling thread's scratch (module state is per thread: each worker has its own) */
export const threadScratch = new Scratch();
