/**
 * Test a dApp offline against the emulator (Node only): one-line helpers
 * over a running emulator's JSON line, and an emulator per test worker.
 *
 * @example
 * ```ts
 * import { startWorkerEmulator } from 'embedded-wallets/testing'
 *
 * const { info, kit, stop } = await startWorkerEmulator({ workerIndex: 0 })
 * const id = await kit.snapshot()
 * await kit.fund('0x70997970C51812dc3A010C7d01b50e0d17dc79C8', { eth: '10' })
 * await kit.revert(id)
 * await stop()
 * ```
 *
 * @packageDocumentation
 */
export type {
  Info,
  ScenarioEntry,
  ScenarioName,
} from '../emulator/index.js'
export {
  HeadlessLoginError,
  type MagicLogins,
  type PassportLogins,
} from './headless.js'
export {
  type Amount,
  createTestKit,
  kitSender,
  type TestKit,
  TestKitError,
  WaitTimeoutError,
} from './kit.js'
export {
  startWorkerEmulator,
  workerPortStripe,
  workerStripes,
} from './worker.js'
