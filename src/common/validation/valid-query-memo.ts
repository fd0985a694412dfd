import type { ClassConstructor } from 'class-transformer';

/**
 * Valid queries remembered per DTO class; the oldest goes first beyond this. Clients that walk more
 * texts than this in turn (pages 1 to N of a list) find none kept, since each goes before it is
 * asked again: the bound is above the 2,000 list pages the benchmarks walk (bench/RESULTS.md).
 */
export const MAX_REMEMBERED_QUERIES = 4_096;
/** Longer query texts are validated every time (a valid one can be long: "page=0001", escapes). */
export const MAX_REMEMBERED_QUERY_LENGTH = 256;

/**
 * The validated DTOs of the last valid queries of each class, by their query text exactly as sent
 * (after `?`). A query's validation is a function of its text alone, and class-transformer and
 * class-validator cost a repeated search about a tenth of its CPU (bench/RESULTS.md, issue 25), so a
 * query asked again is not converted and checked again. Only valid queries are kept: an invalid one
 * is refused by the same code every time, with the same message. A kept DTO is frozen, so no request
 * can change what another receives. Bounded by count and text length (measured: 0.6 MB of heap a class
 * for texts like `page=1234`, 1.0–1.7 MB for the longest): not a catalog answer, so outside CACHE_BUDGET_MB.
 */
export class ValidQueryMemo {
  private readonly byDto = new Map<ClassConstructor<object>, Map<string, object>>();

  /** The DTO a valid query of this text made, if kept. */
  get<T extends object>(dto: ClassConstructor<T>, text: string): T | undefined {
    return this.byDto.get(dto)?.get(text) as T | undefined;
  }

  /** Keeps the DTO a valid query made (frozen), and returns it. */
  remember<T extends object>(dto: ClassConstructor<T>, text: string, valid: T): T {
    Object.freeze(valid);
    if (text.length > MAX_REMEMBERED_QUERY_LENGTH) return valid;
    let texts = this.byDto.get(dto);
    if (!texts) this.byDto.set(dto, (texts = new Map()));
    if (texts.size >= MAX_REMEMBERED_QUERIES) texts.delete(texts.keys().next().value!);
    texts.set(text, valid);
    return valid;
  }
}
