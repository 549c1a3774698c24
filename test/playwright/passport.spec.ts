import { createPublicClient, http } from 'viem'
import { expect, test } from './fixtures.js'

for (const sdk of ['ours', 'published'] as const)
  test.describe(`game wallet (${sdk} SDK)`, () => {
    test('behavior: completeLogin signs in through the login popup', async ({
      open,
      page,
      wallets,
    }) => {
      const user = wallets.newUser()
      await open('passport', { sdk })
      await page.getByTestId('login-popup').click()
      await wallets.passport.completeLogin(page, { email: user.email })
      await expect(page.getByTestId('output')).toContainText(
        `"email":"${user.email}"`,
      )
    })

    test('behavior: completeLogin signs in after a redirect, back at the redirect URI', async ({
      open,
      page,
      wallets,
    }) => {
      const user = wallets.newUser()
      await open('passport', { sdk })
      await page.getByTestId('login-redirect').click()
      await wallets.passport.completeLogin(page, { email: user.email })
      expect(new URL(page.url()).pathname).toBe('/passport-redirect.html')
      await expect(page.getByTestId('output')).toContainText(
        `"email":"${user.email}"`,
      )
    })

    test('behavior: approve and reject answer the guardian confirmation popup', async ({
      open,
      page,
      kit,
      wallets,
    }) => {
      const user = wallets.newUser()
      await kit.guardian.setRules({ confirmErc191: true })
      await open('passport', { sdk })
      await page.getByTestId('login-popup').click()
      await wallets.passport.completeLogin(page, { email: user.email })
      await page.getByTestId('connect').click()
      await expect(page.getByTestId('output')).toHaveText(/^0x[0-9a-fA-F]{40}$/)

      await page.getByTestId('sign').click()
      await wallets.passport.approve(page)
      await expect(page.getByTestId('output')).toHaveText(/^0x[0-9a-f]+$/)

      await page.getByTestId('sign').click()
      await wallets.passport.reject(page)
      await expect(page.getByTestId('error')).toHaveText(
        '-32003: Signature rejected by user',
      )
    })

    test("behavior: approve lets a transaction through the guardian; it is mined from the player's wallet", async ({
      open,
      page,
      emulator,
      kit,
      wallets,
    }) => {
      const user = wallets.newUser()
      await kit.guardian.setRules({ confirmAboveValue: '0' })
      await open('passport', { sdk })
      await page.getByTestId('login-popup').click()
      await wallets.passport.completeLogin(page, { email: user.email })
      await page.getByTestId('connect').click()
      const output = page.getByTestId('output')
      await expect(output).toHaveText(/^0x[0-9a-fA-F]{40}$/)
      const wallet = (await output.textContent()) as `0x${string}`
      await kit.fund(wallet, { eth: '1' })

      await page.getByTestId('send').click()
      await wallets.passport.approve(page)
      await expect(output).toHaveText(/^0x[0-9a-f]{64}$/)
      const chain = createPublicClient({ transport: http(emulator.rpcUrl) })
      const receipt = await chain.waitForTransactionReceipt({
        hash: (await output.textContent()) as `0x${string}`,
      })
      expect(receipt.status).toBe('success')
      expect(
        await chain.getBalance({
          address: '0x000000000000000000000000000000000000dEaD',
        }),
      ).toBe(1n)
    })

    test('error: blockPopups blocks the login popup: the SDK shows its blocked-popup overlay', async ({
      open,
      page,
      wallets,
    }) => {
      await open('passport', { sdk })
      await wallets.blockPopups(page)
      await page.getByTestId('login-popup').click()
      await expect(page.locator('#passport-overlay')).toContainText(
        'Pop-up blocked',
      )
      expect(page.context().pages()).toEqual([page])
      // Reloaded, the page is still behind the blocker.
      await page.reload()
      expect(await page.evaluate(() => window.open('about:blank'))).toBeNull()
    })

    test('error: closeNextPopup closes the login popup', async ({
      open,
      page,
      wallets,
    }) => {
      await open('passport', { sdk })
      await wallets.closeNextPopup(page)
      await page.getByTestId('login-popup').click()
      await expect(page.getByTestId('error')).toHaveText('Popup closed by user')
      expect(page.context().pages()).toEqual([page])
    })
  })

test("error: blockPopups with the SDK's blocked-popup overlay off: the published error", async ({
  open,
  page,
  wallets,
}) => {
  await open('passport', { query: { overlay: 'off' } })
  await wallets.blockPopups(page)
  await page.getByTestId('login-popup').click()
  await expect(page.getByTestId('error')).toHaveText('Popup blocked by user')
})

test('error: approve with no confirmation popup names what it waited for and what it saw', async ({
  open,
  page,
  wallets,
}) => {
  await open('passport')
  const error = await wallets.passport
    .approve(page, { timeoutMs: 300 })
    .catch((error: unknown) => error)
  expect(error).toMatchObject({
    name: 'TestKit.WaitTimeoutError',
    shortMessage:
      "No guardian's confirmation popup ready for a decision within 300 ms; last seen: no confirmation popup open.",
  })
})

test("error: completeLogin with no sign-in started names the provider's login page and the pages seen", async ({
  open,
  page,
  emulator,
  wallets,
}) => {
  await open('passport')
  const error = await wallets.passport
    .completeLogin(page, { email: 'nobody@example.com' }, { timeoutMs: 300 })
    .catch((error: unknown) => error)
  expect(error).toMatchObject({
    name: 'TestKit.WaitTimeoutError',
    shortMessage: `No login page of the identity provider (${emulator.passport.authenticationDomain}) in the page or a popup within 300 ms; last seen: pages at ${page.url()}.`,
  })
})

test("error: completeLogin says how to turn off the published SDK's embedded login prompt", async ({
  open,
  page,
  wallets,
}) => {
  await open('passport', { sdk: 'published', query: { prompt: 'on' } })
  await page.getByTestId('login-popup').click()
  await expect(
    wallets.passport.completeLogin(page, { email: 'nobody@example.com' }),
  ).rejects.toThrow(
    'The published @imtbl/passport shows its embedded login prompt, a hosted page the emulator does not serve: set popupOverlayOptions: { disableHeadlessLoginPromptOverlay: true } in its configuration.',
  )
})
