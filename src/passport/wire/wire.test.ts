import { describe, expect, test } from 'vitest'
import {
  defaultAudience,
  defaultScope,
  logoutParams,
  paths,
  requestParams,
} from './identity.js'

describe('wire', () => {
  test('default: the published paths on the authentication domain', () => {
    expect(paths).toEqual({
      discovery: '/.well-known/openid-configuration',
      authorize: '/authorize',
      token: '/oauth/token',
      deviceAuthorization: '/oauth/device/code',
      deviceVerification: '/device',
      revocation: '/oauth/revoke',
      jwks: '/.well-known/jwks.json',
      userinfo: '/userinfo',
      logout: '/v2/logout',
    })
    expect(logoutParams).toEqual({
      clientId: 'client_id',
      returnTo: 'returnTo',
    })
  })

  test('default: the published request parameters, audience and scope', () => {
    expect(requestParams).toEqual({
      audience: 'audience',
      anonymousId: 'third_party_a_id',
      direct: 'direct',
      email: 'email',
      marketingConsent: 'marketingConsent',
      runtimeId: 'rid',
    })
    expect(defaultAudience).toBe('platform_api')
    expect(defaultScope).toBe('openid profile email offline_access transact')
  })
})
