/** Set on every answer after authentication: an answer for one key is no one else's. */
export const PRIVATE_ANSWER_HEADERS = {
  'Cache-Control': 'private, max-age=0, must-revalidate',
  Vary: 'Authorization',
} as const;
