import type { ClassConstructor } from 'class-transformer';

/**
 * Heap per DTO class. Too small and a client walking pages 1..N finds none kept; this holds the
 * benchmarks' 2,000 list pages several times over.
 */
export const MAX_REMEMBERED_BYTES = 2 * 1024 * 1024;
/** Longer query texts are validated every time (a valid one can be long: "page=0001", escapes). */
export const MAX_REMEMBERED_QUERY_LENGTH = 256;
/** Overhead beside text and DTO JSON (2 bytes a character); covers the measured 180 B–1.8 KB. */
const ENTRY_OVERHEAD_BYTES = 200;

interface Remembered {
  valid: object;
  bytes: number;
}

interface Texts {
  byText: Map<string, Remembered>;
  bytes: number;
}

/**
 * Validated DTOs by raw query text: validation cost a repeated search a tenth of its CPU. Kept DTOs
 * are frozen so no request changes another's; bounded by bytes, outside CACHE_BUDGET_MB.
 */
export class ValidQueryMemo {
  private readonly byDto = new Map<ClassConstructor<object>, Texts>();

  constructor(private readonly maxBytes = MAX_REMEMBERED_BYTES) {}

  /** The DTO a valid query of this text made, if kept. */
  get<T extends object>(dto: ClassConstructor<T>, text: string): T | undefined {
    return this.byDto.get(dto)?.byText.get(text)?.valid as T | undefined;
  }

  /** Keeps the DTO a valid query made (frozen), and returns it. */
  remember<T extends object>(dto: ClassConstructor<T>, text: string, valid: T): T {
    Object.freeze(valid);
    if (text.length > MAX_REMEMBERED_QUERY_LENGTH) return valid;
    let texts = this.byDto.get(dto);
    if (!texts) this.byDto.set(dto, (texts = { byText: new Map(), bytes: 0 }));
    const bytes = ENTRY_OVERHEAD_BYTES + 2 * (text.length + JSON.stringify(valid).length);
    const previous = texts.byText.get(text);
    if (previous) {
      texts.byText.delete(text);
      texts.bytes -= previous.bytes;
    }
    while (texts.bytes + bytes > this.maxBytes && texts.byText.size > 0) {
      const [oldest, entry] = texts.byText.entries().next().value!;
      texts.byText.delete(oldest);
      texts.bytes -= entry.bytes;
    }
    texts.byText.set(text, { valid, bytes });
    texts.bytes += bytes;
    return valid;
  }

  /** The bytes counted for a class (for tests). */
  bytesOf(dto: ClassConstructor<object>): number {
    return this.byDto.get(dto)?.bytes ?? 0;
  }
}
