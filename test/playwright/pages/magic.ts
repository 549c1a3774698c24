import { action, field, readEmulator, sdk } from './app.js'

/**
 * The iframe wallet as a dApp sets it up, with this package's client or
 * the published magic-sdk (`?sdk=published`): only `endpoint` and the
 * network point at the emulator. Logins show the wallet's own screens.
 */

/** What the page uses of either SDK. */
type MagicLike = {
  auth: {
    loginWithEmailOTP(options: { email: string }): Promise<string | null>
    loginWithSMS(options: { phoneNumber: string }): Promise<string | null>
  }
  user: {
    getInfo(): Promise<{ email?: string | null; phoneNumber?: string | null }>
    enableMFA(options?: { showUI?: boolean }): Promise<unknown>
    logout(): Promise<boolean>
  }
  wallet: { connectWithUI(): PromiseLike<string[]> }
  rpcProvider: {
    request(args: { method: string; params?: unknown[] }): Promise<unknown>
  }
}

const info = readEmulator()
const options = {
  endpoint: info.magic.endpoint,
  network: { rpcUrl: info.rpcUrl, chainId: info.chainId },
}
const { Magic } =
  sdk === 'published'
    ? ((await import('magic-sdk')) as unknown as {
        Magic: new (key: string, options: object) => MagicLike
      })
    : ((await import('../../../src/magic/index.js')) as unknown as {
        Magic: new (key: string, options: object) => MagicLike
      })
const magic = new Magic(info.magic.apiKey, options)

const email = field('email', 'Email')
const phone = field('phone', 'Phone')

/** The logged-in user: their address and contact, as getInfo reads them. */
async function loggedIn() {
  const [address] = (await magic.rpcProvider.request({
    method: 'eth_accounts',
  })) as string[]
  const user = await magic.user.getInfo()
  return {
    address,
    email: user.email ?? null,
    phoneNumber: user.phoneNumber ?? null,
  }
}

action('login-email', 'Log in with email', async () => {
  await magic.auth.loginWithEmailOTP({ email: email.value })
  return loggedIn()
})
action('login-sms', 'Log in with SMS', async () => {
  await magic.auth.loginWithSMS({ phoneNumber: phone.value })
  return loggedIn()
})
action('connect', 'Connect (the wallet’s login)', async () => {
  await magic.wallet.connectWithUI()
  return loggedIn()
})
action('enable-mfa', 'Enable MFA', async () => {
  await magic.user.enableMFA({ showUI: true })
  return 'MFA enabled'
})
action('logout', 'Log out', async () => {
  await magic.user.logout()
  return 'logged out'
})
document.body.dataset.ready = 'true'
