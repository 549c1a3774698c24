/**
 * The kit's headless logins, as a dApp's backend test uses them: the iframe
 * wallet's DID token checked by the published `@magic-sdk/admin`, and the
 * game wallet's id token verified against the identity provider's JWKS. The
 * emulator runs in this process, but the kit reaches it over HTTP only.
 */
import { Magic as MagicAdmin } from '@magic-sdk/admin'
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose'
import * as OTPAuth from 'otpauth'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { clientIdOf } from '../../src/emulator/magic/provider/didToken.js'
import {
  createDevice,
  open,
} from '../../src/emulator/magic/provider/testkit.js'
import {
  HeadlessLoginError,
  startWorkerEmulator,
} from '../../src/testing/index.js'

let emulator: startWorkerEmulator.ReturnType

beforeAll(async () => {
  emulator = await startWorkerEmulator({ workerIndex: 2 })
})

afterAll(() => emulator?.stop())

/** The admin SDK as a dApp's backend configures it against the emulator. */
async function adminSdk() {
  const { info, kit } = emulator
  // The dApp's client id (the audience of its DID tokens), given so that
  // `init` asks the emulator for nothing and checks the audience.
  return MagicAdmin.init('sk_live_EMULATOR0000000000', {
    endpoint: info.magic.endpoint,
    clientId: await kit.magic.clientId(),
  })
}

/** The TOTP code of a base32 secret now (6 digits, 30 s, SHA-1). */
function totp(secret: string): string {
  return new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
  }).generate()
}

/**
 * Logs `email` in on a device of its own and turns MFA on, as the
 * published SDK's `user.enableMFA({ showUI: false })` does; returns the
 * TOTP secret the provider handed out.
 */
async function enableMfa(email: string): Promise<string> {
  const { kit, info } = emulator
  const target = {
    request: (path: string, init?: RequestInit) =>
      fetch(`${info.magic.endpoint}${path}`, init),
  }
  const device = await createDevice()
  const login = await open(
    target,
    'magic_auth_login_with_email_otp',
    [{ email, showUI: false }],
    { device },
  )
  await login.event('email-otp-sent')
  await login.answer(
    'verify-email-otp',
    await kit.waitForCode(email, { kind: 'email-otp' }),
  )
  await login.done()
  const flow = await open(
    target,
    'magic_auth_enable_mfa_flow',
    [{ showUI: false }],
    { device },
  )
  const [generated] = await flow.event('mfa-secret-generated')
  const { key } = generated as { key: string }
  expect(await flow.answer('verify-mfa-code', totp(key))).toBe(200)
  expect((await flow.done()).response.result).toBe(true)
  return key
}

describe('kit.magic.didToken', () => {
  test('behavior: an email login gives a DID token @magic-sdk/admin validates, with its issuer and address', async () => {
    const { kit } = emulator
    const login = await kit.magic.didToken({ email: 'ada@example.com' })
    const admin = await adminSdk()
    expect(() => admin.token.validate(login.didToken)).not.toThrow()
    expect(admin.token.getIssuer(login.didToken)).toBe(login.issuer)
    expect(admin.token.getPublicAddress(login.didToken)).toBe(
      login.publicAddress,
    )
    expect(login.issuer).toBe(`did:ethr:${login.publicAddress}`)
    expect(await emulator.kit.magic.clientId()).toBe(
      await clientIdOf(emulator.info.magic.apiKey),
    )
    expect(admin.token.decode(login.didToken)[1].aud).toBe(
      await emulator.kit.magic.clientId(),
    )
    // As a backend often builds it: the secret key alone (no audience
    // check), pointed at the emulator.
    const plain = new MagicAdmin('sk_live_EMULATOR0000000000', {
      endpoint: emulator.info.magic.endpoint,
    })
    expect(() => plain.token.validate(login.didToken)).not.toThrow()
    expect(login.email).toBe('ada@example.com')
    expect(login.phoneNumber).toBeNull()
    // The same user on a second login (a new device), as on the provider.
    const again = await kit.magic.didToken({ email: 'ADA@example.com' })
    expect(again.publicAddress).toBe(login.publicAddress)
    expect(again.didToken).not.toBe(login.didToken)
    // The code was the mailbox's, as a person would have typed it.
    const [message] = await kit.mailbox('ada@example.com')
    expect(message?.kind).toBe('email-otp')
  })

  test('behavior: an SMS login gives a token for the phone user', async () => {
    const { kit } = emulator
    const login = await kit.magic.didToken({ phone: '+1 415 555 0134' })
    const admin = await adminSdk()
    admin.token.validate(login.didToken)
    expect(admin.token.getPublicAddress(login.didToken)).toBe(
      login.publicAddress,
    )
    expect(login.phoneNumber).toBe('+14155550134')
    expect(login.email).toBeNull()
  })

  test('behavior: with an attachment and a lifespan, the token signs the attachment and lives that long', async () => {
    const { kit } = emulator
    const login = await kit.magic.didToken(
      { email: 'grace@example.com' },
      { attachment: 'server-nonce-1', lifespan: 120 },
    )
    const admin = await adminSdk()
    expect(() =>
      admin.token.validate(login.didToken, 'server-nonce-1'),
    ).not.toThrow()
    expect(() => admin.token.validate(login.didToken, 'another')).toThrow(
      expect.objectContaining({ code: 'ERROR_INCORRECT_SIGNER_ADDR' }),
    )
    const [, claim] = admin.token.decode(login.didToken)
    expect(claim.ext - claim.iat).toBe(120)
  })

  test('behavior: a user who requires device approval is approved from the mailed link', async () => {
    const { kit, info } = emulator
    const email = 'linus@example.com'
    const first = await kit.magic.didToken({ email })
    const required = await fetch(
      `${info.magic.endpoint}/dev/users/device-approval`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, required: true }),
      },
    )
    expect(required.status).toBe(200)
    const second = await kit.magic.didToken({ email })
    expect(second.publicAddress).toBe(first.publicAddress)
    const kinds = (await kit.mailbox(email)).map((message) => message.kind)
    expect(kinds.slice(0, 2)).toEqual(['device-approval', 'email-otp'])
  })

  test('behavior: a user with MFA on logs in with mfaCode, and without it the error says so', async () => {
    const { kit } = emulator
    const email = 'mfa@example.com'
    const secret = await enableMfa(email)
    const error = await kit.magic
      .didToken({ email })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(HeadlessLoginError)
    expect((error as HeadlessLoginError).shortMessage).toBe(
      "The iframe wallet's login of mfa@example.com asks for a second factor: the user has MFA on, pass mfaCode.",
    )
    const login = await kit.magic.didToken(
      { email },
      { mfaCode: () => totp(secret) },
    )
    const admin = await adminSdk()
    admin.token.validate(login.didToken)
    expect(login.email).toBe(email)
    // A wrong code is refused by name.
    await expect(
      kit.magic.didToken(
        { email },
        { mfaCode: totp(secret) === '000000' ? '000001' : '000000' },
      ),
    ).rejects.toThrow(
      "The iframe wallet's login of mfa@example.com was refused the MFA code (invalid-mfa-otp): mfaCode must be the current code of the user's authenticator secret.",
    )
  })

  test('error: a malformed email is a HeadlessLoginError carrying the provider code', async () => {
    const { kit } = emulator
    const error = await kit.magic
      .didToken({ email: 'not-an-email' })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(HeadlessLoginError)
    expect(error).toMatchObject({
      name: 'TestKit.HeadlessLoginError',
      code: -32602,
      shortMessage:
        "The iframe wallet's login of not-an-email was refused with -32602: magic_auth_login_with_email_otp: expected a valid email.",
    })
  })

  test('error: neither an email nor a phone is refused before any request', async () => {
    const { kit } = emulator
    await expect(
      kit.magic.didToken({} as unknown as { email: string }),
    ).rejects.toThrow(
      new HeadlessLoginError(
        'kit.magic.didToken takes { email } or { phone }, not {}.',
      ),
    )
  })
})

describe('kit.passport.login', () => {
  test('error: a login without an email is refused before any request', async () => {
    const { kit } = emulator
    await expect(
      kit.passport.login({} as unknown as { email: string }),
    ).rejects.toThrow(
      new HeadlessLoginError('kit.passport.login takes { email }, not {}.'),
    )
  })

  test('behavior: the tokens of an authorization-code login, the id token verified against the JWKS', async () => {
    const { kit, info } = emulator
    const login = await kit.passport.login({ email: 'ada@example.com' })
    const jwks = createRemoteJWKSet(
      new URL('/.well-known/jwks.json', info.passport.authenticationDomain),
    )
    const { payload } = await jwtVerify(login.idToken, jwks, {
      issuer: info.passport.authenticationDomain,
      audience: info.passport.clientId,
    })
    expect(payload.email).toBe('ada@example.com')
    expect(login.claims).toEqual(payload)
    expect(login.expiresIn).toBe(24 * 60 * 60)
    expect(login.refreshToken).toEqual(expect.any(String))
    // The access token is for the platform API, with the player's id.
    const access = decodeJwt(login.accessToken)
    expect(access.aud).toBe('platform_api')
    expect(access.sub).toBe(payload.sub)
    // The same player on the next sign-in.
    const again = await kit.passport.login({ email: 'ada@example.com' })
    expect(again.claims.sub).toBe(payload.sub)
    expect(
      (await kit.mailbox('ada@example.com')).filter(
        (message) => message.kind === 'passport-email-otp',
      ),
    ).toHaveLength(2)
  })

  test('behavior: the access token opens the platform API as the player', async () => {
    const { kit, info } = emulator
    const login = await kit.passport.login({ email: 'grace@example.com' })
    const userinfo = await fetch(
      new URL('/userinfo', info.passport.authenticationDomain),
      { headers: { authorization: `Bearer ${login.accessToken}` } },
    )
    expect(userinfo.status).toBe(200)
    expect(await userinfo.json()).toMatchObject({
      sub: login.claims.sub,
      email: 'grace@example.com',
    })
  })

  test("error: a malformed email stops on the sign-in page with the page's words", async () => {
    const { kit } = emulator
    const error = await kit.passport
      .login({ email: 'not-an-email' })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(HeadlessLoginError)
    expect((error as HeadlessLoginError).shortMessage).toMatch(
      /^The game wallet's sign-in of not-an-email stopped on \/interaction\/[^/ ]+\/email \(400\): Enter a valid email address\.$/,
    )
  })

  test('error: a redirect URI the provider refuses is named', async () => {
    const { kit } = emulator
    const error = await kit.passport
      .login(
        { email: 'ada@example.com' },
        { redirectUri: 'https://dapp.example/callback' },
      )
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(HeadlessLoginError)
    expect(error).toMatchObject({
      code: 'invalid_redirect_uri',
      shortMessage:
        "The game wallet's sign-in of ada@example.com stopped on /authorize (400): invalid_redirect_uri: redirect_uri did not match any of the client's registered redirect_uris.",
    })
  })
})
