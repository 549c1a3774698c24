import { recoverMessageAddress } from 'viem'
import { afterEach, describe, expect, inject, test } from 'vitest'
import { page } from 'vitest/browser'
import { MagicRPCError } from '../../src/magic/index.js'
import {
  createMagic,
  decodeDidToken,
  destroyClients,
  freshEmail,
  isolatedStorage,
  magicIframe,
  readDatabase,
} from './magicClient.js'
import { waitForCode, waitForLink } from './mailbox.js'

/**
 * Our `Magic` client (src/magic) against the emulated provider: the login
 * flows, headless and with the provider's own screens.
 */
describe('Magic client against the emulator: login', () => {
  const { mailbox } = inject('magicEmulator')

  afterEach(() => destroyClients())

  test('email OTP headless: a wrong code gets invalid-email-otp, the right one a DID token; logout clears rt and device shares', async () => {
    const { storage, name } = isolatedStorage()
    const magic = createMagic({ storage })
    const email = freshEmail('otp')
    const events: string[] = []
    const login = magic.auth.loginWithEmailOTP({ email, showUI: false })
    let code = ''
    login.on('email-otp-sent', async () => {
      events.push('email-otp-sent')
      code = await waitForCode({ mailbox, to: email })
      const wrong = code.slice(0, -1) + ((Number(code.at(-1)) + 1) % 10)
      login.emit('verify-email-otp', wrong)
    })
    login.on('invalid-email-otp', () => {
      events.push('invalid-email-otp')
      login.emit('verify-email-otp', code)
    })
    const didToken = await login
    expect(events).toEqual(['email-otp-sent', 'invalid-email-otp'])

    const { proof, message, claim } = decodeDidToken(didToken as string)
    const address = await recoverMessageAddress({ message, signature: proof })
    expect(claim.iss).toBe(`did:ethr:${address}`)

    expect(await magic.user.isLoggedIn()).toBe(true)
    expect(await magic.user.getInfo()).toEqual({
      issuer: `did:ethr:${address}`,
      publicAddress: address,
      email,
      phoneNumber: null,
      isMfaEnabled: false,
      recoveryFactors: [],
      walletType: 'magic',
      firstLoginAt: expect.any(String),
      wallets: { ethereum: { publicAddress: address } },
    })

    const before = await readDatabase(name)
    expect(typeof before.rt).toBe('string')
    expect(Object.keys(before).filter((key) => key.startsWith('ds_'))).toEqual([
      `ds_${magic.networkHash}`,
    ])

    expect(await magic.user.logout()).toBe(true)
    expect(await magic.user.isLoggedIn()).toBe(false)
    const after = await readDatabase(name)
    expect('rt' in after).toBe(false)
    expect(Object.keys(after).filter((key) => key.startsWith('ds_'))).toEqual(
      [],
    )
  })

  test('email OTP with the provider screen: the code typed into the iframe logs in and the overlay hides', async () => {
    const magic = createMagic()
    const email = freshEmail('otp-ui')
    const login = magic.auth.loginWithEmailOTP({ email, showUI: true })
    const code = await waitForCode({ mailbox, to: email })
    const iframe = magicIframe()
    const ui = page.frameLocator(page.elementLocator(iframe))
    await ui.getByTestId('email-otp-input').fill(code)
    await ui.getByTestId('email-otp-submit').click()
    const didToken = await login
    const { proof, message, claim } = decodeDidToken(didToken as string)
    const address = await recoverMessageAddress({ message, signature: proof })
    expect(claim.iss).toBe(`did:ethr:${address}`)
    expect(iframe.style.display).toBe('none')
    expect((await magic.user.getInfo()).email).toBe(email)
  })

  test('SMS headless: sms-otp-sent is answered with verify-sms-otp and logs in by phone', async () => {
    const magic = createMagic()
    const digits = String(crypto.getRandomValues(new Uint32Array(1))[0])
    const phoneNumber = `+1555${digits.padStart(10, '0').slice(-7)}`
    const events: string[] = []
    const login = magic.auth.loginWithSMS({ phoneNumber, showUI: false })
    login.on('sms-otp-sent', async () => {
      events.push('sms-otp-sent')
      login.emit(
        'verify-sms-otp',
        await waitForCode({ mailbox, to: phoneNumber }),
      )
    })
    const didToken = await login
    expect(events).toEqual(['sms-otp-sent'])
    const { claim } = decodeDidToken(didToken as string)
    const info = await magic.user.getInfo()
    expect(info.phoneNumber).toBe(phoneNumber)
    expect(info.email).toBe(null)
    expect(claim.iss).toBe(info.issuer)
  })

  test('magic link: opening the mailed link completes the waiting login', async () => {
    const magic = createMagic()
    const email = freshEmail('link')
    const events: string[] = []
    const login = magic.auth.loginWithMagicLink({ email, showUI: false })
    login.on('email-sent', async () => {
      events.push('email-sent')
      const link = await waitForLink({ mailbox, to: email, kind: 'magic-link' })
      await fetch(link, { mode: 'no-cors' })
    })
    const didToken = await login
    expect(events).toEqual(['email-sent'])
    const { claim } = decodeDidToken(didToken as string)
    const info = await magic.user.getInfo()
    expect(info.email).toBe(email)
    expect(claim.iss).toBe(info.issuer)
  })

  test("magic link headless: the caller's retry sends a new link, and the new one logs in", async () => {
    const magic = createMagic()
    const email = freshEmail('link-retry')
    const events: string[] = []
    const login = magic.auth.loginWithMagicLink({ email, showUI: false })
    const links: string[] = []
    login.on('email-sent', async () => {
      events.push('email-sent')
      links.push(await waitForLink({ mailbox, to: email, kind: 'magic-link' }))
      if (links.length === 1) login.emit('retry')
      else await fetch(links[1] as string, { mode: 'no-cors' })
    })
    const didToken = await login
    expect(events).toEqual(['email-sent', 'email-sent'])
    expect(links[1]).not.toBe(links[0])
    expect(decodeDidToken(didToken as string).claim.iss).toBe(
      (await magic.user.getInfo()).issuer,
    )
  })

  test('magic link to an address mail cannot reach: email-not-deliverable, then -10010', async () => {
    const magic = createMagic()
    const events: string[] = []
    const login = magic.auth.loginWithMagicLink({
      email: `${crypto.randomUUID()}@bounce.invalid`,
      showUI: false,
    })
    login.on('email-not-deliverable', () =>
      events.push('email-not-deliverable'),
    )
    await expect(login).rejects.toMatchObject({
      code: -10010,
      message:
        'Magic RPC Error: [-10010] Mail cannot be delivered to this email address.',
    })
    expect(events).toEqual(['email-not-deliverable'])
  })

  test('loginWithCredential: the magic_credential of the link redirect, read from the page URL and stripped from it, logs in another client', async () => {
    const magic = createMagic()
    const email = freshEmail('credential')
    const redirectURI = `${location.origin}/magic-redirect-${crypto.randomUUID()}`
    const login = magic.auth.loginWithMagicLink({
      email,
      showUI: false,
      redirectURI,
    })
    // It ends as the link opens, before this test looks at it.
    const ended = login.catch((error: unknown) => error)
    const link = await waitForLink({ mailbox, to: email, kind: 'magic-link' })
    // The link redirects to our origin, so the landed URL is readable.
    const landing = document.createElement('iframe')
    landing.style.display = 'none'
    const landed = new Promise<string>((resolve) => {
      landing.addEventListener('load', () => {
        const href = landing.contentWindow?.location.href ?? ''
        if (href.startsWith(redirectURI)) resolve(href)
      })
    })
    landing.src = link
    document.body.append(landing)
    const href = await landed
    landing.remove()
    const search = new URL(href).search
    expect(search).toMatch(/^\?magic_credential=[\w-]+$/)
    // The login goes on at the redirect: this request ends with -10015.
    expect(await ended).toMatchObject({
      code: -10015,
      message:
        'Magic RPC Error: [-10015] The login was completed on the redirect page.',
    })

    // With no argument, the client reads the credential from the page's URL
    // and strips the query from it.
    const page = location.href
    history.replaceState(null, '', `${location.pathname}${search}`)
    const other = createMagic()
    let didToken: string | null
    let stripped: string
    try {
      didToken = await other.auth.loginWithCredential()
      stripped = location.href
    } finally {
      history.replaceState(null, '', page)
    }
    expect(stripped).toBe(`${location.origin}${location.pathname}`)
    const { claim } = decodeDidToken(didToken as string)
    const info = await other.user.getInfo()
    expect(info.email).toBe(email)
    expect(claim.iss).toBe(info.issuer)

    await expect(
      createMagic().auth.loginWithCredential({
        credentialOrQueryString: search,
      }),
    ).rejects.toThrow(
      'Magic RPC Error: [-10000] The credential is unknown or was already used.',
    )
  })

  test('test mode: test+success logs in without a code', async () => {
    const magic = createMagic({ testMode: true })
    const email = `test+success@${crypto.randomUUID()}.example.com`
    const events: string[] = []
    const login = magic.auth.loginWithEmailOTP({ email, showUI: false })
    login.on('email-otp-sent', () => events.push('email-otp-sent'))
    const didToken = await login
    expect(events).toEqual([])
    const { claim } = decodeDidToken(didToken as string)
    expect(claim.iss).toMatch(/^did:ethr:0x[0-9a-fA-F]{40}$/)
    expect(await magic.user.isLoggedIn()).toBe(true)
  })

  test('test mode: test+fail rejects with the emulator error as MagicRPCError', async () => {
    const magic = createMagic({ testMode: true })
    const email = `test+fail@${crypto.randomUUID()}.example.com`
    const error = await magic.auth
      .loginWithEmailOTP({ email, showUI: false })
      .then(
        () => undefined,
        (error: unknown) => error,
      )
    expect(error).toBeInstanceOf(MagicRPCError)
    expect((error as MagicRPCError).code).toBe(-10011)
    expect((error as MagicRPCError).message).toBe(
      'Magic RPC Error: [-10011] Test mode: test+fail addresses always fail to log in.',
    )
    expect(await magic.user.isLoggedIn()).toBe(false)
  })
})
