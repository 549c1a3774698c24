import { emulatorSetup } from '../../../src/testing/vitest.js'

/** One emulator for the run, shared by the project's two workers. */
export default emulatorSetup()
