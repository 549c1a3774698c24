/**
 * withEmulator() with no global setup, as the README's first Vitest example
 * uses it: the file starts an emulator of its own, reverts its chain after
 * each test and stops it after the file.
 */
import { expect, inject, test } from 'vitest'
import { withEmulator } from '../../../src/testing/vitest.js'

const emulator = withEmulator()
const dave = '0x00000000000000000000000000000000000DA7E5'

test('behavior: without a global setup the file starts its own emulator', async () => {
  expect(inject('embeddedWallets')).toBeUndefined()
  expect(await emulator.kit.mintNft(dave, { tokenId: 5n })).toBe(5n)
  const { didToken } = await emulator.kit.magic.didToken({
    email: 'own@example.com',
  })
  expect(didToken).toMatch(/^[A-Za-z0-9+/]+=*$/)
})

test('behavior: its chain is reverted after each test too', async () => {
  expect(await emulator.kit.mintNft(dave, { tokenId: 5n })).toBe(5n)
})
