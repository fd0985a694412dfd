import type { ClassConstructor } from 'class-transformer';

/**
 * The heap the valid queries remembered for one DTO class may hold. Clients that walk more texts
 * than fit in turn (pages 1 to N of a list) find none kept, since each goes before it is asked
 * again: it holds the 2,000 list pages the benchmarks walk (bench/RESULTS.md) several times over.
 */
export const MAX_REMEMBERED_BYTES = 2 * 1024 * 1024;
/** Longer query texts are validated every time (a valid one can be long: "page=0001", escapes). */
export const MAX_REMEMBERED_QUERY_LENGTH = 256;
/**
 * A remembered query's weight beside its text and its DTO's JSON, each counted at two bytes a
 * character: measured 1.5–1.8 KB of heap for a 100-character search, 180 B for a list page (Map slot,
 * DTO object, V8 string headers), which the estimate covers.
 */
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
 * The validated DTOs of the last valid queries of each class, by their query text exactly as sent
 * (after `?`). A query's validation is a function of its text alone, and class-transformer and
 * class-validator cost a repeated search about a tenth of its CPU (bench/RESULTS.md), so a query
 * asked again is not converted and checked again. Only valid queries are kept: an invalid one is
 * refused by the same code every time, with the same message. A kept DTO is frozen, so no request
 * can change what another receives. Texts are client input, so each class is bounded by bytes
 * (MAX_REMEMBERED_BYTES, the oldest going first): not a catalog answer, so outside CACHE_BUDGET_MB.
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
