/**
 * One emulator for a run of two workers: the provided context says it is
 * shared, and withEmulator() leaves the chain alone between tests (a revert
 * would undo the other worker's running test).
 */
import { createPublicClient, http } from 'viem'
import { expect, inject, test } from 'vitest'
import { withEmulator } from '../../../src/testing/vitest.js'

const emulator = withEmulator()
const erin = '0x00000000000000000000000000000000000E7177'

test('behavior: the one emulator of the run is provided as shared', async () => {
  const { emulators, shared } = inject('embeddedWallets')
  expect(emulators).toEqual([emulator.info])
  expect(shared).toBe(true)
  await emulator.kit.fund(erin, { eth: '4321' })
})

test('behavior: the next test still sees what the last one did', async () => {
  const chain = createPublicClient({ transport: http(emulator.info.rpcUrl) })
  expect(await chain.getBalance({ address: erin })).toBe(4321n * 10n ** 18n)
})
