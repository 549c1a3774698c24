import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { createScreens } from '../../src/emulator/magic/provider/app/screens.js'
import type {
  Screen,
  ScreenAnswer,
  ScreenData,
} from '../../src/emulator/magic/provider/protocol.js'

/**
 * The iframe app's screens on their own (rendered on the test page from
 * sample data typed by protocol.ts's `Screens`): each shows its data, uses
 * only its allowed answers, and survives missing fields.
 */
describe('emulated iframe screens', () => {
  let root: HTMLElement
  let answers: { eventType: string; args: unknown }[]
  const ctx = {
    answer: (eventType: string, args?: unknown) => {
      answers.push({ eventType, args })
    },
  }

  beforeEach(() => {
    root = document.createElement('main')
    document.body.append(root)
    answers = []
  })
  afterEach(() => root.remove())

  function show<screen extends Screen>(
    screen: screen,
    data: ScreenData<screen>,
  ) {
    createScreens(root).show('flow-1', screen, data, ctx)
  }

  function answered<screen extends Screen>(
    _screen: screen,
    eventType: ScreenAnswer<screen>,
    args?: unknown,
  ) {
    expect(answers.at(-1)).toEqual({ eventType, args })
  }

  const text = (testid: string) =>
    root.querySelector(`[data-testid="${testid}"]`)?.textContent

  test('email-otp: shows the address and the error; submits the code', async () => {
    show('email-otp', { email: 'ada@example.com', error: 'invalid' })
    expect(root.textContent).toContain('ada@example.com')
    expect(text('email-otp-error')).toMatch(/not right/)
    await page.getByTestId('email-otp-input').fill('123456')
    await page.getByTestId('email-otp-submit').click()
    answered('email-otp', 'verify-email-otp', '123456')
    await page.getByTestId('close').click()
    answered('email-otp', 'cancel')
  })

  test('sms-otp and mfa-code answer their codes', async () => {
    show('sms-otp', { phoneNumber: '+15550100000' })
    await page.getByTestId('sms-otp-input').fill('111111')
    await page.getByTestId('sms-otp-submit').click()
    answered('sms-otp', 'verify-sms-otp', '111111')
    await page.getByTestId('sms-otp-retry').click()
    answered('sms-otp', 'retry')

    show('mfa-code', {})
    await page.getByTestId('mfa-code-input').fill('222222')
    await page.getByTestId('mfa-code-submit').click()
    answered('mfa-code', 'verify-mfa-code', '222222')
    await page.getByTestId('lost-device').click()
    answered('mfa-code', 'lost-device')
  })

  test('recovery-code, device approval and magic link', async () => {
    show('recovery-code', { error: 'invalid' })
    await page.getByTestId('recovery-code-input').fill('abcd-efgh')
    await page.getByTestId('recovery-code-submit').click()
    answered('recovery-code', 'verify-recovery-code', 'abcd-efgh')

    show('device-approval', { email: 'ada@example.com' })
    expect(text('device-approval-message')).toContain('ada@example.com')
    await page.getByTestId('device-retry').click()
    answered('device-approval', 'device-retry')

    show('magic-link-sent', { email: 'ada@example.com' })
    expect(text('magic-link-sent')).toContain('ada@example.com')
    await page.getByTestId('magic-link-retry').click()
    answered('magic-link-sent', 'retry')
  })

  test('update-email: new address, then its code', async () => {
    show('update-email', { step: 'new-email', error: 'already-exists' })
    expect(text('update-email-error')).toMatch(/already used/)
    await page.getByTestId('update-email-input').fill('new@example.com')
    await page.getByTestId('update-email-submit').click()
    answered(
      'update-email',
      'UpdateEmail/retry-with-new-email',
      'new@example.com',
    )

    show('update-email', { step: 'verify', email: 'new@example.com' })
    await page.getByTestId('update-email-otp-input').fill('333333')
    await page.getByTestId('update-email-otp-submit').click()
    answered('update-email', 'UpdateEmail/new-email-verify-otp', '333333')
    await page.getByTestId('update-email-edit').click()
    answered('update-email', 'edit-email')
    await page.getByTestId('close').click()
    answered('update-email', 'UpdateEmail/new-email-verification-cancel')
  })

  test('enable-mfa shows the secret and URI, then the recovery codes', async () => {
    const uri = 'otpauth://totp/Emulator:ada?secret=JBSWY3DPEHPK3PXP'
    show('enable-mfa', { step: 'secret', secret: 'JBSWY3DPEHPK3PXP', uri })
    expect(text('mfa-secret')).toBe('JBSWY3DPEHPK3PXP')
    expect(text('mfa-uri')).toBe(uri)
    await page.getByTestId('mfa-code-input').fill('444444')
    await page.getByTestId('mfa-code-submit').click()
    answered('enable-mfa', 'verify-mfa-code', '444444')

    show('enable-mfa', { step: 'recovery-codes', recoveryCodes: ['a1', 'b2'] })
    expect(text('mfa-recovery-codes')).toBe('a1b2')
    await page.getByTestId('mfa-done').click()
    answered('enable-mfa', 'close')
  })

  test('disable-mfa, recovery factor and account recovery', async () => {
    show('disable-mfa', { step: 'recovery-code' })
    await page.getByTestId('recovery-code-input').fill('r-1')
    await page.getByTestId('recovery-code-submit').click()
    answered('disable-mfa', 'verify-recovery-code', 'r-1')
    await page.getByTestId('close').click()
    answered('disable-mfa', 'cancel-mfa-disable')

    show('recovery-factor', { step: 'phone', error: 'malformed' })
    await page.getByTestId('phone-number-input').fill('+15550100001')
    await page.getByTestId('phone-number-submit').click()
    answered('recovery-factor', 'send-new-phone-number', '+15550100001')

    show('recover-account', { step: 'otp', phoneNumber: '+15550100001' })
    await page.getByTestId('sms-otp-input').fill('555555')
    await page.getByTestId('sms-otp-submit').click()
    answered('recover-account', 'verify-otp-code', '555555')

    show('recover-account', { step: 'new-email' })
    await page.getByTestId('new-email-input').fill('b@example.com')
    await page.getByTestId('new-email-submit').click()
    answered('recover-account', 'update-email', 'b@example.com')
  })

  test('wallet screens show their data and close', async () => {
    const address = '0x000000000000000000000000000000000000dEaD'
    show('wallet', { address, balance: '1500000000000000000', chainId: 31337 })
    expect(text('wallet-address')).toBe(address)
    expect(text('wallet-balance')).toBe('1.5 ETH')
    await page.getByTestId('close').click()
    answered('wallet', 'close')

    show('balances', {
      address,
      chainId: 31337,
      balances: [
        { symbol: 'ETH', balance: '2000000000000000000', decimals: 18 },
        { symbol: 'USDC', balance: '1234500', decimals: 6, token: address },
      ],
    })
    expect(text('balances-eth')).toBe('2')
    expect(text('balances-usdc')).toBe('1.2345')

    show('onramp', { address, emulated: true })
    expect(text('onramp-emulated')).toMatch(/emulated/)

    show('nfts', {
      address,
      nfts: [
        {
          contractAddress: address,
          standard: 'ERC721',
          tokenId: '7',
          quantity: '1',
        },
      ],
    })
    expect(root.querySelectorAll('[data-testid="nft-item"]')).toHaveLength(1)
  })

  test('send-tokens answers { to, amount } and shows error or hash', async () => {
    const address = '0x000000000000000000000000000000000000dEaD'
    show('send-tokens', { address, balance: '0', error: 'Not enough ETH.' })
    expect(text('send-tokens-error')).toBe('Not enough ETH.')
    await page.getByTestId('send-tokens-to').fill(address)
    await page.getByTestId('send-tokens-amount').fill('0.01')
    await page.getByTestId('send-tokens-submit').click()
    answered('send-tokens', 'send-tokens', { to: address, amount: '0.01' })
    show('send-tokens', { address, balance: '0', hash: '0xabc' })
    expect(text('send-tokens-hash')).toBe('0xabc')
  })

  test('checkout, reveal key, settings, login and user info', async () => {
    show('nft-checkout', {
      action: 'transfer',
      contractAddress: '0x01',
      tokenId: '3',
      quantity: '1',
      recipient: '0x02',
    })
    await page.getByTestId('nft-checkout-confirm').click()
    answered('nft-checkout', 'confirm')
    expect(text('nft-checkout-disconnect')).toBeUndefined()

    const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    show('nft-checkout', {
      action: 'checkout',
      contractAddress: '0x0000000000000000000000000000000000000001',
      tokenId: '1',
      quantity: '1',
      wallet,
    })
    expect(text('nft-wallet')).toContain(wallet)
    await page.getByTestId('nft-checkout-disconnect').click()
    answered('nft-checkout', 'disconnect')

    show('reveal-key', { privateKey: '0xsecret' })
    expect(text('private-key')).toBe('')
    await page.getByTestId('reveal-key').click()
    expect(text('private-key')).toBe('0xsecret')

    show('settings', { email: 'ada@example.com', isMfaEnabled: false })
    await page.getByTestId('settings-mfa').click()
    answered('settings', 'open-page', 'mfa')

    show('login', {})
    await page.getByTestId('login-email-input').fill('ada@example.com')
    await page.getByTestId('login-email-submit').click()
    answered('login', 'submit-email', 'ada@example.com')
    expect(text('login-connect-wallet')).toBeUndefined()
    show('login', { wallets: ['web3modal'] })
    await page.getByTestId('login-connect-wallet').click()
    answered('login', 'connect-wallet')
    show('login', { wallets: ['web3modal'], connecting: true })
    expect(text('login-connecting')).toBe('Continue in your wallet.')

    show('user-info', { email: 'ada@example.com' })
    await page.getByTestId('user-info-share').click()
    answered('user-info', 'share')
  })

  test('renders every screen without its data, and text stays text', () => {
    const screens = createScreens(root)
    const names: Screen[] = [
      'email-otp',
      'sms-otp',
      'mfa-code',
      'recovery-code',
      'device-approval',
      'magic-link-sent',
      'update-email',
      'enable-mfa',
      'disable-mfa',
      'recovery-factor',
      'recover-account',
      'wallet',
      'address',
      'balances',
      'send-tokens',
      'onramp',
      'nfts',
      'nft-checkout',
      'reveal-key',
      'settings',
      'login',
      'user-info',
    ]
    for (const name of names) {
      screens.show('flow-1', name, {}, ctx)
      expect(root.dataset.screen).toBe(name)
      screens.show(
        'flow-1',
        name,
        { email: '<img src=x onerror=alert(1)>' },
        ctx,
      )
      expect(root.querySelector('img')).toBeNull()
    }
    screens.show('flow-1', 'close', {}, ctx)
    expect(root.childElementCount).toBe(0)
  })

  test('working state, and the flow end clears only its own screen', () => {
    const screens = createScreens(root)
    screens.working('flow-1')
    expect(text('working')).toBeTruthy()
    screens.end('flow-2')
    expect(root.childElementCount).toBe(1)
    screens.end('flow-1')
    expect(root.childElementCount).toBe(0)
  })
})
