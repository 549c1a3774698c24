import { action } from './app.js'
import { createPassport } from './passportSdk.js'

/** The game: sign in (popup or redirect), connect the wallet, sign. */

const passport = await createPassport()
let provider: Awaited<ReturnType<typeof passport.connectEvm>> | undefined
let account = ''

action('login-popup', 'Sign in', () => passport.login())
action('login-redirect', 'Sign in (redirect)', () =>
  passport.login({ useRedirectFlow: true }),
)
action('connect', 'Connect wallet', async () => {
  provider = await passport.connectEvm({ announceProvider: false })
  const accounts = (await provider.request({
    method: 'eth_requestAccounts',
  })) as string[]
  account = accounts[0] ?? ''
  return account
})
action('sign', 'Sign a message', () => {
  if (!provider) throw new Error('Connect first.')
  // 'hello' in hex.
  return provider.request({
    method: 'personal_sign',
    params: ['0x68656c6c6f', account],
  })
})
action('send', 'Send 1 wei', () => {
  if (!provider) throw new Error('Connect first.')
  return provider.request({
    method: 'eth_sendTransaction',
    params: [
      {
        from: account,
        to: '0x000000000000000000000000000000000000dEaD',
        value: '0x1',
      },
    ],
  })
})
document.body.dataset.ready = 'true'
