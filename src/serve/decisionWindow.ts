/**
 * decisionWindow — the records `serve` keeps: the newest `maxDecisions` decisions, with the turn and misroute
 * records that arrived among them, oldest evicted first and counted.
 *
 * A long-running receiver must not grow with its input, and must not forget silently either: every record
 * evicted is counted by kind, and /metrics and the summary on exit show those counts. Turn and misroute records
 * have no limit of their own in the window's name, so they are bounded by a share of it (`otherPerDecision`
 * times `maxDecisions`), evicted oldest first as well.
 *
 * Counts alone do not bound memory when senders choose the sizes: the records held, packed, with the shared
 * strings they hold, may take at most `maxBytes` (older ones are evicted past it, counted as `forBytes`), and no
 * string is stored longer than `maxString` (cut, counted). Memory is bounded by these settings, never by what
 * arrives.
 *
 * Records are held packed (packedRecords): appended to chunks of `CHUNK_BYTES`, one order for all kinds, and a
 * chunk is let go once every record in it was evicted. So the default window of 100,000 decisions takes a few
 * tens of MiB that the garbage collector never walks, instead of about 140 MiB of objects it walks on every major
 * collection. `records()` unpacks them one at a time, oldest first. A version number moves with every change.
 * Pure. No I/O.
 */
import type { TraceRecord } from '../record/types.js';
import { DEFAULT_MAX_STORED_STRING } from '../trace/bytes/cutString.js';
import { createRecordPacker } from '../trace/bytes/packedRecords.js';

/** How many records the window holds. */
export interface DecisionWindowConfig {
  /** Decisions kept (`--max-decisions`). @default 100000 */
  readonly maxDecisions: number;
  /** Turn and misroute records kept per decision of `maxDecisions`. @default 2 */
  readonly otherPerDecision: number;
  /**
   * Bytes the records may take together, packed, with the shared strings they hold (`--max-window-mb`): past
   * it the oldest are evicted whatever their count. @default 64 MiB
   */
  readonly maxBytes: number;
  /** The longest string stored whole (`--max-string`); longer ones are cut (cutString) and counted. @default 1024 */
  readonly maxString: number;
}

/** The defaults `createDecisionWindow` uses. */
export const DEFAULT_DECISION_WINDOW_CONFIG: DecisionWindowConfig = Object.freeze({
  maxDecisions: 100_000,
  otherPerDecision: 2,
  maxBytes: 64 * 1024 * 1024,
  maxString: DEFAULT_MAX_STORED_STRING,
});

/** The size of one chunk of packed records (a larger record gets a chunk of its own size). */
export const CHUNK_BYTES = 1024 * 1024;

/** What the window evicted since it started, by kind. */
export interface EvictedCounts {
  decisions: number;
  turns: number;
  misroutes: number;
  /** Of all those, the records evicted because the window was over `maxBytes` (not its counts). */
  forBytes: number;
}

/** A record as the window took it. */
export interface AddedRecord {
  /** The record as the window holds it: the one added, or, when a string of it was cut, what was stored. */
  readonly record: TraceRecord;
  /** Its number: records are numbered 0, 1, 2… as they arrive. */
  readonly number: number;
  /** Its packed size. */
  readonly bytes: number;
}

/** The window itself. */
export interface DecisionWindow {
  /** Add a record, evicting the oldest beyond the limits. */
  add(record: TraceRecord): AddedRecord;
  /** Every record held, oldest first (unpacked as it is reached). */
  records(): Iterable<TraceRecord>;
  /** The records held numbered from `from` to before `to`, oldest first. */
  recordsBetween(from: number, to: number): Iterable<TraceRecord>;
  /** The number of the oldest record held (of the next one to come when none is). */
  readonly firstNumber: number;
  /** Decisions held now. */
  readonly decisions: number;
  /** Records of every kind held now. */
  readonly size: number;
  /** Bytes of the chunks held now. */
  readonly bytes: number;
  /** Bytes the records held now take, packed, with their shared strings: what `maxBytes` bounds. */
  readonly liveBytes: number;
  /** Strings stored cut since the start (`maxString`). */
  readonly stringsCut: number;
  /** Distinct short strings the records held now share (packedRecords). */
  readonly sharedStrings: number;
  /** What was evicted so far. */
  readonly evicted: Readonly<EvictedCounts>;
  /** Moves with every add. */
  readonly version: number;
  readonly config: DecisionWindowConfig;
}

interface Chunk {
  readonly bytes: Buffer;
  used: number;
  /** Records in it not yet evicted. */
  live: number;
}

const KIND_DECISION = 0;
const KIND_TURN = 1;
const KIND_MISROUTE = 2;

/** An empty window. */
export function createDecisionWindow(config: Partial<DecisionWindowConfig> = {}): DecisionWindow {
  const cfg: DecisionWindowConfig = { ...DEFAULT_DECISION_WINDOW_CONFIG, ...config };
  if (!Number.isInteger(cfg.maxDecisions) || cfg.maxDecisions < 1)
    throw new RangeError(`maxDecisions must be a whole number from 1, got ${cfg.maxDecisions}`);
  const maxOther = Math.max(1, Math.floor(cfg.maxDecisions * cfg.otherPerDecision));
  const packer = createRecordPacker({ maxString: cfg.maxString });
  let packedBytes = 0;
  const liveBytes = (): number => packedBytes + packer.sharedBytes;

  // The ring of entries: which chunk, where in it, how long, what kind. Grows by doubling as records come.
  let capacity = 1024;
  let chunkOf: Chunk[] = new Array<Chunk>(capacity);
  let offsetOf = new Uint32Array(capacity);
  let lengthOf = new Uint32Array(capacity);
  let kindOf = new Uint8Array(capacity);
  let head = 0;
  /** The number of the record at `head`: records are numbered 0, 1, 2… as they arrive. */
  let headNumber = 0;
  let size = 0;
  let decisions = 0;
  let other = 0;
  let version = 0;
  let bytes = 0;
  let current: Chunk | undefined;
  const evicted: EvictedCounts = { decisions: 0, turns: 0, misroutes: 0, forBytes: 0 };

  const grow = (): void => {
    const next = capacity * 2;
    const chunks = new Array<Chunk>(next);
    const offsets = new Uint32Array(next);
    const lengths = new Uint32Array(next);
    const kinds = new Uint8Array(next);
    for (let i = 0; i < size; i++) {
      const from = (head + i) % capacity;
      chunks[i] = chunkOf[from]!;
      offsets[i] = offsetOf[from]!;
      lengths[i] = lengthOf[from]!;
      kinds[i] = kindOf[from]!;
    }
    chunkOf = chunks;
    offsetOf = offsets;
    lengthOf = lengths;
    kindOf = kinds;
    capacity = next;
    head = 0;
  };

  const store = (packed: Buffer): Chunk => {
    if (current === undefined || current.used + packed.length > current.bytes.length) {
      current = {
        bytes: Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, packed.length)),
        used: 0,
        live: 0,
      };
      bytes += current.bytes.length;
    }
    packed.copy(current.bytes, current.used);
    current.used += packed.length;
    current.live++;
    return current;
  };

  const evictOldest = (): void => {
    const chunk = chunkOf[head]!;
    packer.release(chunk.bytes, offsetOf[head]!, offsetOf[head]! + lengthOf[head]!);
    packedBytes -= lengthOf[head]!;
    chunkOf[head] = undefined as unknown as Chunk;
    const kind = kindOf[head];
    head = (head + 1) % capacity;
    headNumber++;
    size--;
    chunk.live--;
    if (chunk.live === 0) {
      bytes -= chunk.bytes.length;
      if (chunk === current) current = undefined;
    }
    if (kind === KIND_DECISION) {
      decisions--;
      evicted.decisions++;
    } else {
      other--;
      if (kind === KIND_TURN) evicted.turns++;
      else evicted.misroutes++;
    }
  };

  // Records are visited by number, so one added meanwhile is not visited, and a walk (a page made a slice at a
  // time) that finds records evicted meanwhile goes on at the oldest still held, never reading a slot that now
  // holds another record.
  function* between(first: number, last: number): Generator<TraceRecord> {
    for (let n = first; n < last; n++) {
      if (n < headNumber) n = headNumber;
      if (n >= last) return;
      const at = (head + (n - headNumber)) % capacity;
      const offset = offsetOf[at]!;
      yield packer.unpack(chunkOf[at]!.bytes, offset, offset + lengthOf[at]!) as TraceRecord;
    }
  }

  return {
    add(record) {
      if (size === capacity) grow();
      const cutBefore = packer.stringsCut;
      const packed = packer.pack(record);
      const number = headNumber + size;
      const at = (head + size) % capacity;
      const chunk = store(packed);
      chunkOf[at] = chunk;
      offsetOf[at] = chunk.used - packed.length;
      lengthOf[at] = packed.length;
      kindOf[at] =
        record.kind === 'decision' ? KIND_DECISION : record.kind === 'turn' ? KIND_TURN : KIND_MISROUTE;
      size++;
      packedBytes += packed.length;
      // A cut string makes what is held differ from what was added: the analyses see what is held.
      const held =
        packer.stringsCut === cutBefore
          ? record
          : (packer.unpack(chunk.bytes, offsetOf[at]!, offsetOf[at]! + packed.length) as TraceRecord);
      if (record.kind === 'decision') decisions++;
      else other++;
      // One order for all kinds keeps a replay faithful: the records of the other kind passed on the way
      // to the oldest of the kind over its limit are older still, so they go too.
      while (decisions > cfg.maxDecisions || other > maxOther) evictOldest();
      // The newest record stays, whatever its size (a body is at most --max-body, its strings cut).
      while (liveBytes() > cfg.maxBytes && size > 1) {
        evictOldest();
        evicted.forBytes++;
      }
      version++;
      return { record: held, number, bytes: packed.length };
    },
    records() {
      return between(headNumber, headNumber + size);
    },
    recordsBetween(from, to) {
      return between(Math.max(from, headNumber), Math.min(to, headNumber + size));
    },
    get firstNumber() {
      return headNumber;
    },
    get decisions() {
      return decisions;
    },
    get size() {
      return size;
    },
    get bytes() {
      return bytes;
    },
    get liveBytes() {
      return liveBytes();
    },
    get stringsCut() {
      return packer.stringsCut;
    },
    get sharedStrings() {
      return packer.sharedStrings;
    },
    get evicted() {
      return evicted;
    },
    get version() {
      return version;
    },
    config: cfg,
  };
}
