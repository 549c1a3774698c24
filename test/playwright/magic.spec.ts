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
      await expect(page.getByTestId('output')).toContainText(
        `"email":"${user.email}"`,
      )
    })
  })
