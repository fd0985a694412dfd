import type { NextFunction, Request, Response } from 'express';
import { type FirstStep, firstSteps } from './first-steps';

describe('firstSteps', () => {
  const req = {} as Request;
  const res = {} as Response;

  function recording(name: string, ran: string[], then: (next: NextFunction) => void = (next) => next()) {
    const step: FirstStep = (_req, _res, next) => {
      ran.push(name);
      then(next);
    };
    return step;
  }

  it('runs every step in order, then passes the request on', () => {
    const ran: string[] = [];
    const next = jest.fn();
    firstSteps(recording('a', ran), recording('b', ran), recording('c', ran))(req, res, next);
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(next).toHaveBeenCalledTimes(1);
    expect(next).toHaveBeenCalledWith();
  });

  it('stops at a step that answers without calling next', () => {
    const ran: string[] = [];
    const next = jest.fn();
    firstSteps(
      recording('a', ran),
      recording('answers', ran, () => undefined),
      recording('c', ran),
    )(req, res, next);
    expect(ran).toEqual(['a', 'answers']);
    expect(next).not.toHaveBeenCalled();
  });

  it("passes a step's error on and runs no later step", () => {
    const ran: string[] = [];
    const next = jest.fn();
    const failure = new Error('bad');
    firstSteps(
      recording('fails', ran, (n) => n(failure)),
      recording('later', ran),
    )(req, res, next);
    expect(ran).toEqual(['fails']);
    expect(next).toHaveBeenCalledWith(failure);
  });

  it('lets a thrown error reach the caller (Express turns it into next(error))', () => {
    const next = jest.fn();
    const throwing: FirstStep = () => {
      throw new Error('thrown');
    };
    expect(() => firstSteps(throwing)(req, res, next)).toThrow('thrown');
    expect(next).not.toHaveBeenCalled();
  });
});
