import { expect, test } from './fixtures.js'

for (const sdk of ['ours', 'published'] as const)
  test.describe(`iframe wallet (${sdk} SDK)`, () => {
    test('behavior: completeLogin types the email code into the wallet iframe', async ({
      open,
      page,
      wallets,
    }) => {
      const user = wallets.newUser()
      await open('magic', { sdk })
      await page.getByTestId('email').fill(user.email)
      await page.getByTestId('login-email').click()
      await wallets.magic.completeLogin(page, { email: user.email })
      await expect(page.getByTestId('output')).toHaveText(
        new RegExp(`^\\{"address":"0x[0-9a-fA-F]{40}","email":"${user.email}"`),
      )
    })

    test("behavior: completeLogin types the email into the wallet's own login screen (connectWithUI), then the code", async ({
      open,
      page,
      wallets,
    }) => {
      const user = wallets.newUser()
      await open('magic', { sdk })
      await page.getByTestId('connect').click()
      await wallets.magic.completeLogin(page, { email: user.email })
      await expect(page.getByTestId('output')).toContainText(
        `"email":"${user.email}"`,
      )
    })

    test('behavior: completeLogin types the SMS code', async ({
      open,
      page,
      wallets,
    }) => {
      const user = wallets.newUser()
      await open('magic', { sdk })
      await page.getByTestId('phone').fill(user.phone)
      await page.getByTestId('login-sms').click()
      await wallets.magic.completeLogin(page, { phone: user.phone })
      await expect(page.getByTestId('output')).toContainText(
        `"phoneNumber":"${user.phone}"`,
      )
    })

    test('behavior: enableMfa sets MFA up; the next completeLogin answers the MFA screen', async ({
      open,
      page,
      wallets,
    }) => {
      const user = wallets.newUser()
      await open('magic', { sdk })
      await page.getByTestId('email').fill(user.email)
      await page.getByTestId('login-email').click()
      await wallets.magic.completeLogin(page, { email: user.email })
      await expect(page.getByTestId('output')).toContainText(user.email)

      await page.getByTestId('enable-mfa').click()
      const { secret, recoveryCodes } = await wallets.magic.enableMfa(page)
      expect(secret).toMatch(/^[A-Z2-7]{32}$/)
      expect(recoveryCodes).toHaveLength(8)
      await expect(page.getByTestId('output')).toHaveText('MFA enabled')
      await page.getByTestId('logout').click()
      await expect(page.getByTestId('output')).toHaveText('logged out')

      await page.getByTestId('login-email').click()
      await wallets.magic.completeLogin(page, { email: user.email })
      await expect(page.getByTestId('output')).toContainText(user.email)
    })
  })

test('error: completeLogin with no login started names the screen it waited for and what it saw', async ({
  open,
  page,
  wallets,
}) => {
  await open('magic')
  const error = await wallets.magic
    .completeLogin(page, { email: 'nobody@example.com' }, { timeoutMs: 300 })
    .catch((error: unknown) => error)
  expect(error).toMatchObject({
    name: 'TestKit.WaitTimeoutError',
    shortMessage:
      'No shown login or email-otp screen of the iframe wallet within 300 ms; last seen: a hidden wallet iframe on no screen.',
  })
})
