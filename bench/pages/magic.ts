/**
 * The iframe wallet's dApp page, the same source for both clients: the
 * bundler resolves `bench:magic` to `embedded-wallets/magic` (ours, the built
 * package) or to the published `magic-sdk` (bench/browser.ts), so the two
 * pages differ only in the SDK they bundle.
 */
import { Magic } from 'bench:magic'
import { install } from './harness.js'

install(({ endpoint, apiKey, rpcUrl, chainId }) => {
  const magic = new Magic(apiKey, { endpoint, network: { rpcUrl, chainId } })
  return {
    request: () => magic.rpcProvider.request({ method: 'eth_chainId' }),
    ready: () => magic.preload(),
  }
})
