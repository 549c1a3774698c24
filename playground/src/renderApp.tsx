import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'
import { App } from './App.js'
import { createPageMagic, createWagmiConfig } from './config.js'
import type { Info } from './emulator.js'
import { FailuresProvider } from './ui/errors.js'
import { createEmailLogin } from './wallet/emailLogin.js'
import { WalletLogProvider } from './wallet/log.js'

/**
 * Renders the playground app into `root`. The wallets are made once, outside
 * React: the wagmi config with its connectors, and the iframe wallet the
 * page embeds (which announces itself through EIP-6963).
 */
export function renderApp(root: HTMLElement, info: Info): void {
  const emailLogin = createEmailLogin()
  const config = createWagmiConfig(info, emailLogin)
  const pageMagic = createPageMagic(info)
  const queryClient = new QueryClient()
  createRoot(root).render(
    <StrictMode>
      <WagmiProvider config={config}>
        <QueryClientProvider client={queryClient}>
          <FailuresProvider>
            <WalletLogProvider>
              <App info={info} pageMagic={pageMagic} emailLogin={emailLogin} />
            </WalletLogProvider>
          </FailuresProvider>
        </QueryClientProvider>
      </WagmiProvider>
    </StrictMode>,
  )
}
