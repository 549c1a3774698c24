import { emulatorSetup } from '../../../src/testing/vitest.js'

/** One emulator per worker of the project. */
export default emulatorSetup({ perWorker: true })
