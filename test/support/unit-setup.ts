import { Logger } from '@nestjs/common';

/**
 * Unit tests exercise failures on purpose (a refused connection, a failed refresh), and the code
 * logs them as it should; printed, those expected warnings and their stack traces bury a real
 * failure. Nest's logger prints nothing in unit tests; a test that checks a log line spies on
 * `Logger.prototype`, which this does not change. LOG_UNIT_TESTS=1 prints them again.
 */
if (!process.env.LOG_UNIT_TESTS) Logger.overrideLogger(false);
