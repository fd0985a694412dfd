/** Input that cannot be loaded as given; names the file and, where there is one, the line. */
export class IngestInputError extends Error {
  constructor(file: string, problem: string, line?: number) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${problem}`);
    this.name = 'IngestInputError';
  }
}
