/**
 * The servers `bench/admission-server.ts` runs, by the mode it is started with (its header says what
 * each is). The floors are the bare endpoint behind the framework's parts of the service's pipeline.
 */
export const FLOOR_MODES = ['bare+throttler', 'bare+guards', 'bare+guards+app-prototypes'] as const;
export const SERVER_MODES = ['full', 'limits-overridden', 'bare', ...FLOOR_MODES] as const;
export type ServerMode = (typeof SERVER_MODES)[number];

/** Whether `text` names one of `modes`. */
export function isModeOf<M extends string>(modes: readonly M[], text: string): text is M {
  return (modes as readonly string[]).includes(text);
}
