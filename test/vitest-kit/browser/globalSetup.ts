import { emulatorSetup } from '../../../src/testing/vitest.js'

/** One emulator for the run: the browser commands call the kit on it. */
export default emulatorSetup()
