import * as OTPAuth from 'otpauth'
import { recoverMessageAddress } from 'viem'
import { afterEach, describe, expect, inject, test } from 'vitest'
import {
  createMagic,
  decodeDidToken,
  destroyClients,
  freshEmail,
  isolatedStorage,
  loginWithEmail,
} from './magicClient.js'
import { waitForCode } from './mailbox.js'

/**
 * Our `Magic` client (src/magic) against the emulated provider: id tokens,
 * MFA, email update.
 */
describe('Magic client against the emulator: user', () => {
  const { mailbox } = inject('magicEmulator')

  afterEach(() => destroyClients())

  const totp = (secret: string) =>
    new OTPAuth.TOTP({
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      secret: OTPAuth.Secret.fromBase32(secret),
    }).generate()

  test("getIdToken and generateIdToken: ext - iat is the lifespan, add is the user's signature of the attachment", async () => {
    const magic = createMagic()
    const email = freshEmail('token')
    await loginWithEmail(magic, email)
    const { issuer } = await magic.user.getInfo()

    const idToken = decodeDidToken(
      await magic.user.getIdToken({ lifespan: 120 }),
    )
    expect(idToken.claim.ext - idToken.claim.iat).toBe(120)
    expect(idToken.claim.iss).toBe(issuer)
    expect(
      `did:ethr:${await recoverMessageAddress({ message: 'none', signature: idToken.claim.add })}`,
    ).toBe(issuer)
    expect(
      `did:ethr:${await recoverMessageAddress({ message: idToken.message, signature: idToken.proof })}`,
    ).toBe(issuer)

    const generated = decodeDidToken(
      await magic.user.generateIdToken({
        lifespan: 3600,
        attachment: 'server-nonce-42',
      }),
    )
    expect(generated.claim.ext - generated.claim.iat).toBe(3600)
    expect(
      `did:ethr:${await recoverMessageAddress({ message: 'server-nonce-42', signature: generated.claim.add })}`,
    ).toBe(issuer)
    expect(generated.claim.iss).toBe(issuer)
    expect(generated.claim.tid).not.toBe(idToken.claim.tid)
    expect(
      `did:ethr:${await recoverMessageAddress({ message: generated.message, signature: generated.proof })}`,
    ).toBe(issuer)
  })

  test('MFA: enable headless, log in with a TOTP, then with a recovery code, then disable', async () => {
    const magic = createMagic()
    const email = freshEmail('mfa')
    await loginWithEmail(magic, email)

    // Enable: secret → TOTP → recovery codes.
    const enableEvents: string[] = []
    let secret = ''
    let recoveryCodes: string[] = []
    const enable = magic.user.enableMFA({ showUI: false })
    enable.on(
      'mfa-secret-generated',
      (data: { QRCode: string; key: string }) => {
        enableEvents.push('mfa-secret-generated')
        secret = data.key
        expect(data.QRCode).toMatch(/^otpauth:\/\/totp\//)
        enable.emit('verify-mfa-code', totp(secret))
      },
    )
    enable.on('mfa-recovery-codes', (data: { recoveryCodes: string[] }) => {
      enableEvents.push('mfa-recovery-codes')
      recoveryCodes = data.recoveryCodes
    })
    expect(await enable).toBe(true)
    expect(enableEvents).toEqual(['mfa-secret-generated', 'mfa-recovery-codes'])
    expect(recoveryCodes).toHaveLength(8)
    expect((await magic.user.getInfo()).isMfaEnabled).toBe(true)
    await magic.user.logout()

    // Log in again: email code, then the TOTP.
    const totpEvents: string[] = []
    const second = loginWithEmail(magic, email)
    second.on('mfa-sent-handle', () => {
      totpEvents.push('mfa-sent-handle')
      second.emit('verify-mfa-code', totp(secret))
    })
    await second
    expect(totpEvents).toEqual(['mfa-sent-handle'])
    expect(await magic.user.isLoggedIn()).toBe(true)
    await magic.user.logout()

    // Lost device: a recovery code instead of the TOTP.
    const recoveryEvents: string[] = []
    const third = loginWithEmail(magic, email)
    third.on('mfa-sent-handle', () => {
      recoveryEvents.push('mfa-sent-handle')
      third.emit('lost-device')
    })
    third.on('recovery-code-sent-handle', () => {
      recoveryEvents.push('recovery-code-sent-handle')
      third.emit('verify-recovery-code', recoveryCodes[0])
    })
    third.on('recovery-code-success', () =>
      recoveryEvents.push('recovery-code-success'),
    )
    await third
    expect(recoveryEvents).toEqual([
      'mfa-sent-handle',
      'recovery-code-sent-handle',
      'recovery-code-success',
    ])
    expect((await magic.user.getInfo()).email).toBe(email)

    // Disable with a TOTP.
    const disableEvents: string[] = []
    const disable = magic.user.disableMFA({ showUI: false })
    disable.on('mfa-code-requested', () => {
      disableEvents.push('mfa-code-requested')
      disable.emit('verify-mfa-code', totp(secret))
    })
    expect(await disable).toBe(true)
    expect(disableEvents).toEqual(['mfa-code-requested'])
    expect((await magic.user.getInfo()).isMfaEnabled).toBe(false)
  })

  test('updateEmailWithUI headless: the recency code, then the new address code, then email-updated', async () => {
    const magic = createMagic()
    const email = freshEmail('old')
    const newEmail = freshEmail('new')
    await loginWithEmail(magic, email)

    const events: string[] = []
    const after = new Date().toISOString()
    const update = magic.auth.updateEmailWithUI({
      email: newEmail,
      showUI: false,
    })
    for (const name of [
      'Recency/auth-factor-needs-verification',
      'Recency/auth-factor-verified',
      'UpdateEmail/new-email-verification-email-sent',
      'UpdateEmail/email-updated',
    ] as const)
      update.on(name, () => events.push(name))
    update.on('Recency/auth-factor-verification-email-sent', async () => {
      events.push('Recency/auth-factor-verification-email-sent')
      update.emit(
        'Recency/auth-factor-verify-email-otp',
        await waitForCode({ mailbox, to: email, after }),
      )
    })
    update.on('UpdateEmail/new-email-needs-verification', async () => {
      events.push('UpdateEmail/new-email-needs-verification')
      update.emit(
        'UpdateEmail/new-email-verify-otp',
        await waitForCode({ mailbox, to: newEmail, after }),
      )
    })
    expect(await update).toBe(true)
    expect(events).toEqual([
      'Recency/auth-factor-needs-verification',
      'Recency/auth-factor-verification-email-sent',
      'Recency/auth-factor-verified',
      'UpdateEmail/new-email-verification-email-sent',
      'UpdateEmail/new-email-needs-verification',
      'UpdateEmail/email-updated',
    ])
    expect((await magic.user.getInfo()).email).toBe(newEmail)
  })

  /** Resolves `isLoggedIn()` and says whether the iframe was ready by then. */
  async function isLoggedInBeforeReady(
    magic: ReturnType<typeof createMagic>,
  ): Promise<{ loggedIn: boolean; readyFirst: boolean }> {
    let ready = false
    const onMessage = (event: MessageEvent) => {
      const msgType = (event.data as { msgType?: unknown } | null)?.msgType
      if (msgType === `MAGIC_OVERLAY_READY-${magic.parameters}`) ready = true
    }
    window.addEventListener('message', onMessage)
    try {
      const loggedIn = await magic.user.isLoggedIn()
      return { loggedIn, readyFirst: ready }
    } finally {
      window.removeEventListener('message', onMessage)
    }
  }

  test('useStorageCache: after a login a new client answers isLoggedIn true from the cache, before the iframe is ready', async () => {
    const { storage } = isolatedStorage()
    const first = createMagic({ storage, useStorageCache: true })
    await loginWithEmail(first, freshEmail('cache'))
    destroyClients()

    const second = createMagic({ storage, useStorageCache: true })
    const loggedOut: boolean[] = []
    second.user.onUserLoggedOut((value) => loggedOut.push(value))
    expect(await isLoggedInBeforeReady(second)).toEqual({
      loggedIn: true,
      readyFirst: false,
    })
    // The iframe confirms: the session is live, so no logout callback.
    expect(await second.user.getInfo()).toMatchObject({ isMfaEnabled: false })
    expect(await second.user.isLoggedIn()).toBe(true)
    expect(loggedOut).toEqual([])
  })

  test('useStorageCache: a session revoked elsewhere answers true from the cache, then fires onUserLoggedOut', async () => {
    const { storage } = isolatedStorage()
    const first = createMagic({ storage, useStorageCache: true })
    await loginWithEmail(first, freshEmail('revoked'))
    expect(await first.user.isLoggedIn()).toBe(true)
    destroyClients()

    // Another instance with the same device key and session logs out: the
    // session is revoked server-side, this storage still has the flag.
    const copy = isolatedStorage().storage
    for (const key of ['STORE_KEY_PRIVATE_KEY', 'STORE_KEY_PUBLIC_JWK', 'rt'])
      await copy.setItem(key, await storage.getItem(key))
    expect(await createMagic({ storage: copy }).user.logout()).toBe(true)
    destroyClients()

    const second = createMagic({ storage, useStorageCache: true })
    const loggedOut = new Promise<boolean>((resolve) =>
      second.user.onUserLoggedOut(resolve),
    )
    expect(await isLoggedInBeforeReady(second)).toEqual({
      loggedIn: true,
      readyFirst: false,
    })
    expect(await loggedOut).toBe(true)
    expect(await storage.getItem('magic_auth_is_logged_in')).toBe(null)
    expect(await second.user.isLoggedIn()).toBe(false)
  })
})
