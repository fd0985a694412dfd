/** Quotes a client-supplied name for an error message without echoing unbounded input. */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
}
