/**
 * The OIDC client's discovery of the authorization server: the discovery
 * document, the issuer check, loopback-only plain HTTP and static metadata.
 * The other client methods are tested in `oidc.test.ts`.
 */

import * as oauth from 'oauth4webapi'
import { beforeEach, describe, expect, test } from 'vitest'
import { createTestClient } from './_test/client.js'
import { createIdp, type Idp } from './_test/idp.js'
import { create, isLoopbackHttp, staticMetadata } from './oidc.js'

let idp: Idp
beforeEach(async () => {
  idp = await createIdp()
})

const client = (overrides: Parameters<typeof createTestClient>[1] = {}) =>
  createTestClient(idp, overrides)

describe('authorizationServer', () => {
  test('default: discovers once from /.well-known/openid-configuration', async () => {
    const oidc = client()
    const as = await oidc.authorizationServer()
    await oidc.authorizationServer()
    expect(as.token_endpoint).toBe('https://auth.immutable.com/oauth/token')
    expect(
      idp.requests.map((r) => [r.method, r.url, r.headers.accept]),
    ).toEqual([
      [
        'GET',
        'https://auth.immutable.com/.well-known/openid-configuration',
        'application/json',
      ],
    ])
  })

  test('error: a discovery document naming another issuer is refused', async () => {
    const oidc = client({ authenticationDomain: 'https://login.example' })
    const other = await createIdp({
      base: 'https://login.example',
      issuer: 'https://evil.example/',
    })
    const error = await create({ ...oidc.options, fetch: other.fetch })
      .authorizationServer()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(oauth.OperationProcessingError)
    expect((error as oauth.OperationProcessingError).code).toBe(
      oauth.JSON_ATTRIBUTE_COMPARISON,
    )
  })

  test('behavior: plain HTTP is allowed for loopback issuers only', async () => {
    expect(isLoopbackHttp(new URL('http://127.0.0.1:4402'))).toBe(true)
    expect(isLoopbackHttp(new URL('http://localhost:4402'))).toBe(true)
    expect(isLoopbackHttp(new URL('http://[::1]:4402'))).toBe(true)
    expect(isLoopbackHttp(new URL('http://auth.example'))).toBe(false)
    expect(isLoopbackHttp(new URL('https://127.0.0.1'))).toBe(false)

    const local = await createIdp({
      base: 'http://127.0.0.1:4402',
      issuer: 'http://127.0.0.1:4402',
    })
    const as = await create({
      ...client().options,
      authenticationDomain: 'http://127.0.0.1:4402',
      fetch: local.fetch,
    }).authorizationServer()
    expect(as.issuer).toBe('http://127.0.0.1:4402')

    const remote = await createIdp({
      base: 'http://auth.example',
      issuer: 'http://auth.example/',
    })
    const error = await create({
      ...client().options,
      authenticationDomain: 'http://auth.example',
      fetch: remote.fetch,
    })
      .authorizationServer()
      .catch((e: unknown) => e)
    expect((error as { code?: string }).code).toBe(oauth.HTTP_REQUEST_FORBIDDEN)
    expect(remote.requests).toEqual([])
  })

  test('behavior: static metadata uses the published fixed paths', async () => {
    expect(staticMetadata('https://auth.immutable.com')).toEqual({
      issuer: 'https://auth.immutable.com/',
      authorization_endpoint: 'https://auth.immutable.com/authorize',
      token_endpoint: 'https://auth.immutable.com/oauth/token',
      userinfo_endpoint: 'https://auth.immutable.com/userinfo',
      revocation_endpoint: 'https://auth.immutable.com/oauth/revoke',
      device_authorization_endpoint:
        'https://auth.immutable.com/oauth/device/code',
      jwks_uri: 'https://auth.immutable.com/.well-known/jwks.json',
    })
    await client({ metadata: 'static' }).authorizationServer()
    expect(idp.requests).toEqual([])
  })
})
