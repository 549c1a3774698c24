/**
 * A browser-mode test calling the kit through Vitest's commands: the
 * helpers run in Node on the emulator the global setup started, and their
 * bigints cross as '<digits>n' strings.
 */
import { expect, inject, test } from 'vitest'
import { commands } from 'vitest/browser'

const carol = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'

test('behavior: the commands reach the emulator the setup provided', async () => {
  const info = await commands.emulatorInfo()
  expect(info).toEqual(inject('embeddedWallets').emulators[0])
  expect(typeof window).toBe('object')
})

test('behavior: fund and mintNft from the page, bigints as strings', async () => {
  expect(await commands.emulatorKit('fund', carol, { eth: '3' })).toEqual({
    eth: '3000000000000000000n',
    erc20: '0n',
  })
  expect(
    await commands.emulatorKit('mintNft', carol, { tokenId: '8128n' }),
  ).toBe('8128n')
})

test('behavior: a headless login and the mailbox code it used', async () => {
  const login = await commands.emulatorKit('magic.didToken', {
    email: 'page@example.com',
  })
  expect(login.email).toBe('page@example.com')
  expect(login.didToken).toMatch(/^[A-Za-z0-9+/]+=*$/)
  const code = await commands.emulatorKit('waitForCode', 'page@example.com')
  expect(code).toMatch(/^\d{6}$/)
})

test('error: an unknown helper is refused by name', async () => {
  await expect(
    commands.emulatorKit('nope' as 'fund', carol, {}),
  ).rejects.toThrow('The kit has no helper "nope".')
})
