/**
 * A second file, run beside the first on the other worker: it mints on its
 * own emulator's chain, so ids start at 1 whatever the other file does.
 */
import { expect, inject, test } from 'vitest'
import { withEmulator } from '../../../src/testing/vitest.js'

const emulator = withEmulator()
const bob = '0x90F79bf6EB2c4f870365E785982E1f161e4a2C0b'

test("behavior: the worker's emulator is one of the setup's, and a chosen NFT id is minted on it", async () => {
  const { emulators } = inject('embeddedWallets')
  expect(emulators.map((info) => info.rpcUrl)).toContain(emulator.info.rpcUrl)
  expect(await emulator.kit.mintNft(bob, { tokenId: 31337n })).toBe(31337n)
})

test('behavior: the chosen id is gone after the revert', async () => {
  expect(await emulator.kit.mintNft(bob, { tokenId: 31337n })).toBe(31337n)
})
