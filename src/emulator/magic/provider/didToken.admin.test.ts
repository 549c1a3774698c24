/**
 * The emulator's DID tokens, as a dApp's backend checks them with the
 * published `@magic-sdk/admin`: its `token.validate` accepts the tokens of
 * a login, `getIdToken` and `generateIdToken` (with its attachment), and
 * refuses expired, early, tampered, foreign and attachment-less ones with
 * its own error codes. The admin SDK is built with the client id, so it
 * never calls the provider's API (its endpoint points at a closed port to
 * prove it).
 */
import { Magic as MagicAdmin, SDKError } from '@magic-sdk/admin'
import { beforeAll, describe, expect, test } from 'vitest'
import { clientIdOf, decodeDidToken } from './didToken.js'
import { defaultApiKey } from './protocol.js'
import {
  call,
  createDevice,
  createTestService,
  type Device,
  loginByEmail,
} from './testkit.js'

let admin: MagicAdmin

beforeAll(async () => {
  // With a client id, `init` asks the API for nothing; a call would fail
  // on this closed port.
  admin = await MagicAdmin.init('sk_live_EMULATOR0000000000', {
    clientId: await clientIdOf(defaultApiKey),
    endpoint: 'http://127.0.0.1:1',
  })
})

/** A service on a clock that starts now (the admin SDK reads the real one). */
async function setup() {
  const service = createTestService({ start: new Date() })
  const device = await createDevice({ now: service.now })
  const loginToken = await loginByEmail(
    service.app,
    service.mailbox,
    'ada@example.com',
    device,
  )
  return { ...service, device, loginToken }
}

/** A token from `method` for the logged-in `device`. */
async function tokenOf(
  app: ReturnType<typeof createTestService>['app'],
  device: Device,
  method: 'magic_auth_get_id_token' | 'magic_auth_generate_id_token',
  options?: { lifespan?: number; attachment?: string },
): Promise<string> {
  const { result, error } = await call(app, method, [options], { device })
  if (typeof result !== 'string') throw new Error(JSON.stringify(error))
  return result
}

/** What `validate` throws, as `{ code, message }`; `undefined` if it accepts. */
function validation(token: string, attachment?: string) {
  try {
    admin.token.validate(token, attachment)
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(SDKError)
    const { code, message } = error as SDKError
    return { code, message }
  }
}

/** Re-encodes `token` with its claim changed, keeping its proof. */
function tamper(
  token: string,
  change: (claim: Record<string, unknown>) => void,
) {
  const { proof, parsed } = decodeDidToken(token)
  const claim = { ...parsed } as Record<string, unknown>
  change(claim)
  return Buffer.from(JSON.stringify([proof, JSON.stringify(claim)])).toString(
    'base64',
  )
}

describe('@magic-sdk/admin token.validate', () => {
  test('behavior: accepts the tokens of loginWithEmailOTP, getIdToken and generateIdToken', async () => {
    const { app, device, loginToken, registry } = await setup()
    const user = registry.find({ email: 'ada@example.com' })!
    expect(validation(loginToken)).toBeUndefined()
    const idToken = await tokenOf(app, device, 'magic_auth_get_id_token')
    expect(validation(idToken)).toBeUndefined()
    const generated = await tokenOf(
      app,
      device,
      'magic_auth_generate_id_token',
      {
        attachment: 'some-nonce',
        lifespan: 3600,
      },
    )
    expect(validation(generated, 'some-nonce')).toBeUndefined()
    expect(admin.token.getIssuer(generated)).toBe(`did:ethr:${user.address}`)
    expect(admin.token.getPublicAddress(generated)).toBe(user.address)
    const [, claim] = admin.token.decode(generated)
    expect(claim.ext - claim.iat).toBe(3600)
    expect(claim.sub).toBe(user.id)
  })

  test('error: a token signing another attachment is ERROR_INCORRECT_SIGNER_ADDR', async () => {
    const { app, device } = await setup()
    const generated = await tokenOf(
      app,
      device,
      'magic_auth_generate_id_token',
      {
        attachment: 'some-nonce',
      },
    )
    expect(validation(generated, 'another-nonce')).toEqual({
      code: 'ERROR_INCORRECT_SIGNER_ADDR',
      message:
        'Magic Admin SDK Error: [ERROR_INCORRECT_SIGNER_ADDR] Incorrect signer address for DID Token. Request failed authentication.',
    })
    // A token without an attachment signs 'none', not the backend's nonce.
    const plain = await tokenOf(app, device, 'magic_auth_get_id_token')
    expect(validation(plain, 'some-nonce')?.code).toBe(
      'ERROR_INCORRECT_SIGNER_ADDR',
    )
  })

  test('error: an expired token is ERROR_DIDT_EXPIRED', async () => {
    const { app, device, advance } = await setup()
    // Issued 16 minutes ago with the default 15-minute lifespan.
    advance(-16 * 60 * 1000)
    const expired = await tokenOf(app, device, 'magic_auth_get_id_token')
    expect(validation(expired)).toEqual({
      code: 'ERROR_DIDT_EXPIRED',
      message:
        'Magic Admin SDK Error: [ERROR_DIDT_EXPIRED] DID Token has expired. Request failed authentication.',
    })
  })

  test('error: a token issued more than the 5-minute grace ahead is ERROR_DIDT_CANNOT_BE_USED_YET', async () => {
    const { app, device, advance } = await setup()
    advance(6 * 60 * 1000)
    // The device's proof must be dated on the service's clock too.
    const early = await tokenOf(app, device, 'magic_auth_get_id_token')
    expect(validation(early)?.code).toBe('ERROR_DIDT_CANNOT_BE_USED_YET')
  })

  test('error: a claim altered after signing is ERROR_INCORRECT_SIGNER_ADDR', async () => {
    const { loginToken } = await setup()
    expect(
      validation(
        tamper(loginToken, (claim) => {
          claim.sub = 'someone-else'
        }),
      ),
    ).toEqual({
      code: 'ERROR_INCORRECT_SIGNER_ADDR',
      message:
        'Magic Admin SDK Error: [ERROR_INCORRECT_SIGNER_ADDR] Incorrect signer address for DID Token. Request failed authentication.',
    })
  })

  test('error: a claim without add is ERROR_MALFORMED_TOKEN', async () => {
    const { loginToken } = await setup()
    expect(
      validation(
        tamper(loginToken, (claim) => {
          delete claim.add
        }),
      ),
    ).toEqual({
      code: 'ERROR_MALFORMED_TOKEN',
      message:
        'Magic Admin SDK Error: [ERROR_MALFORMED_TOKEN] The DID token is malformed or failed to parse.',
    })
  })

  test("error: another application's client id is ERROR_AUDIENCE_MISMATCH", async () => {
    const { loginToken } = await setup()
    const other = await MagicAdmin.init('sk_live_OTHER', {
      clientId: await clientIdOf('pk_live_OTHER'),
      endpoint: 'http://127.0.0.1:1',
    })
    expect(() => other.token.validate(loginToken)).toThrow(
      expect.objectContaining({ code: 'ERROR_AUDIENCE_MISMATCH' }),
    )
  })
})
