/** Raised by commands for bad arguments or refused operations; printed as one line. */
export class CliError extends Error {}
