/**
 * propertyRuns (setup) — fast-check's default run count, scaled by FC_RUNS_MULTIPLIER for every test file.
 *
 * Laws that name their own count scale it with propertyRuns() from test/helpers/propertyRuns.ts.
 */
import fc from 'fast-check';
import { propertyRuns } from '../helpers/propertyRuns.js';

fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: propertyRuns(100) });
