import type { Page } from '@playwright/test'
import type { Info } from 'embedded-wallets/testing'
import {
  type Address,
  createPublicClient,
  getAddress,
  type Hash,
  http,
  parseEther,
} from 'viem'
import { expect, test } from './dapp.js'

/** Where the dApp sends 0.01 ETH (src/App.tsx). */
const recipient = '0x000000000000000000000000000000000000dEaD'

/** The chain, read directly: what the page says is checked against it. */
function chainOf(emulator: Info) {
  return createPublicClient({ transport: http(emulator.rpcUrl) })
}

/** The address the page shows once a wallet is connected. */
async function connectedAddress(page: Page): Promise<Address> {
  await expect(page.getByTestId('address')).toHaveText(/^0x[0-9a-fA-F]{40}$/)
  return getAddress((await page.getByTestId('address').textContent()) ?? '')
}

/** Presses "Send 0.01 ETH" and returns the hash of the success it shows. */
async function sendFromPage(page: Page): Promise<Hash> {
  await page.getByRole('button', { name: 'Send 0.01 ETH' }).click()
  const outcome = page.getByTestId('outcome')
  await expect(outcome).toHaveText(/^Transaction success: 0x[0-9a-f]{64}$/)
  return ((await outcome.textContent()) ?? '').split(': ')[1] as Hash
}

test('behavior: the iframe wallet logs in through its own screens (email, then code), sends 0.01 ETH and signs a message viem verifies', async ({
  page,
  emulator,
  kit,
  wallets,
}) => {
  const user = wallets.newUser()
  await page.goto('/')
  await page
    .getByRole('button', { name: 'Log in with the iframe wallet' })
    .click()
  await wallets.magic.completeLogin(page, { email: user.email })
  await expect(page.getByTestId('wallet')).toHaveText('Magic')
  const address = await connectedAddress(page)
  await kit.fund(address, { eth: '1' })

  const hash = await sendFromPage(page)
  const chain = chainOf(emulator)
  const sent = await chain.getTransaction({ hash })
  expect({ from: sent.from, to: sent.to, value: sent.value }).toEqual({
    from: address.toLowerCase(),
    to: recipient.toLowerCase(),
    value: parseEther('0.01'),
  })

  await page.getByRole('button', { name: 'Sign message' }).click()
  await expect(page.getByTestId('outcome')).toHaveText('Signature verified')
  await expect(page.getByTestId('failure')).toBeHidden()

  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(
    page.getByRole('button', { name: 'Log in with the iframe wallet' }),
  ).toBeVisible()
  await expect(page.getByTestId('address')).toBeHidden()
})

test('behavior: the game wallet logs in through its popup, signs before and after its deployment (ERC-6492, then ERC-1271) and sends through the relayer', async ({
  page,
  emulator,
  kit,
  wallets,
}) => {
  const user = wallets.newUser()
  await page.goto('/')
  await page
    .getByRole('button', { name: 'Log in with the game wallet' })
    .click()
  await wallets.passport.completeLogin(page, { email: user.email })
  const wallet = await connectedAddress(page)
  const chain = chainOf(emulator)
  await kit.fund(wallet, { eth: '1' })

  // Not deployed yet: the signature is wrapped in ERC-6492.
  expect(await chain.getCode({ address: wallet })).toBeUndefined()
  await page.getByRole('button', { name: 'Sign message' }).click()
  await expect(page.getByTestId('outcome')).toHaveText('Signature verified')

  const hash = await sendFromPage(page)
  const receipt = await chain.getTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(await chain.getBalance({ address: wallet })).toBe(parseEther('0.99'))
  // Deployed by its first transaction: now ERC-1271 answers.
  expect(await chain.getCode({ address: wallet })).toMatch(/^0x[0-9a-f]+$/)
  await page.getByRole('button', { name: 'Sign message' }).click()
  await expect(page.getByTestId('outcome')).toHaveText('Signature verified')
})

test('behavior: a send the guardian wants confirmed waits for the player, and goes through once approved in its popup', async ({
  page,
  emulator,
  kit,
  wallets,
}) => {
  const user = wallets.newUser()
  await page.goto('/')
  await page
    .getByRole('button', { name: 'Log in with the game wallet' })
    .click()
  await wallets.passport.completeLogin(page, { email: user.email })
  const wallet = await connectedAddress(page)
  await kit.fund(wallet, { eth: '1' })
  // This wallet's own rule: any value above 0.001 ETH asks the player.
  await kit.guardian.setRules(
    { confirmAboveValue: parseEther('0.001').toString() },
    { wallet },
  )

  await page.getByRole('button', { name: 'Send 0.01 ETH' }).click()
  await wallets.passport.approve(page)
  await expect(page.getByTestId('outcome')).toHaveText(
    /^Transaction success: 0x[0-9a-f]{64}$/,
  )
  const balance = await chainOf(emulator).getBalance({ address: wallet })
  expect(balance).toBe(parseEther('0.99'))
})

test("error: a send the relayer fails shows the wallet's message and moves nothing", async ({
  page,
  emulator,
  kit,
  wallets,
}) => {
  const user = wallets.newUser()
  await page.goto('/')
  await page
    .getByRole('button', { name: 'Log in with the game wallet' })
    .click()
  await wallets.passport.completeLogin(page, { email: user.email })
  const wallet = await connectedAddress(page)
  await kit.fund(wallet, { eth: '1' })
  await kit.relayer.next('fail', { wallet })

  await page.getByRole('button', { name: 'Send 0.01 ETH' }).click()
  await expect(page.getByTestId('failure')).toContainText(
    'Transaction failed to submit with status FAILED.',
  )
  await expect(page.getByTestId('outcome')).toBeHidden()
  const balance = await chainOf(emulator).getBalance({ address: wallet })
  expect(balance).toBe(parseEther('1'))
})
