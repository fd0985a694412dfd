import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** A synchronous middleware step: it calls `next` (with an error or none), or answers itself. */
export type FirstStep = (req: Request, res: Response, next: NextFunction) => void;

/**
 * The middleware every request passes, run in order as one Express layer: each `app.use` layer costs
 * the router a match, a params object and a path trim per request, and these steps match every path
 * anyway. A step that answers without calling `next` ends the chain; an error passed to `next` or
 * thrown goes to Express's error handling, as from separate layers.
 */
export function firstSteps(...steps: readonly FirstStep[]): RequestHandler {
  return function runFirstSteps(req: Request, res: Response, next: NextFunction): void {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) return next(error);
      const current = steps[index++];
      if (current === undefined) return next();
      current(req, res, step);
    };
    step();
  };
}
