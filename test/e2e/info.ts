/**
 * The emulator's JSON line (its `Info`) as the e2e tests expect it for a
 * port base, an Anvil port and a chain id: every value written out.
 */
import { predictContracts } from '../../src/emulator/chain/deploy.js'
import type { Info } from '../../src/emulator/index.js'

/** The exact `Info` of an emulator started with these ports. */
export function expectedInfo(options: {
  portBase: number
  anvilPort: number
  chainId: number
}): Info {
  const { portBase, anvilPort, chainId } = options
  return {
    chainId,
    rpcUrl: `http://127.0.0.1:${anvilPort}`,
    chains: [{ chainId, rpcUrl: `http://127.0.0.1:${anvilPort}` }],
    contracts: predictContracts(),
    mailbox: `http://127.0.0.1:${portBase}/mailbox`,
    magic: {
      endpoint: `http://127.0.0.1:${portBase + 1}`,
      apiKey: 'pk_live_EMULATOR0000000000',
    },
    passport: {
      authenticationDomain: `http://127.0.0.1:${portBase + 2}`,
      clientId: 'emulator-passport-client',
      redirectUri: 'http://localhost:5173/passport/redirect',
      logoutRedirectUri: 'http://localhost:5173/passport/logout',
      passportDomain: `http://127.0.0.1:${portBase + 6}`,
    },
  }
}
