/** For routes that take no query parameters: any parameter is unknown. */
export class NoQueryDto {}
