import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'
import { App } from './App.js'
import { createPageMagic, createWagmiConfig } from './config.js'
import type { Info } from './emulator.js'
import { createPassports } from './passport/config.js'
import { FailuresProvider } from './ui/errors.js'
import { ActivityProvider } from './wallet/activity.js'
import { createEmailLogin } from './wallet/emailLogin.js'
import { WalletLogProvider } from './wallet/log.js'
import { Toasts } from './wallet/Toasts.js'

/**
 * Renders the playground app into `root`. The wallets are made once, outside
 * React (StrictMode would make and announce them twice): the game wallets,
 * the wagmi config with both connectors, the iframe wallet the page embeds
 * and the game wallet's zkEVM provider, each of which announces itself
 * through EIP-6963 as the package does by default.
 */
export function renderApp(root: HTMLElement, info: Info): void {
  const emailLogin = createEmailLogin()
  const passports = createPassports(info.passport)
  const config = createWagmiConfig(info, emailLogin, passports)
  const pageMagic = createPageMagic(info)
  const gameProvider = passports.silent.connectEvm()
  const queryClient = new QueryClient()
  createRoot(root).render(
    <StrictMode>
      <WagmiProvider config={config}>
        <QueryClientProvider client={queryClient}>
          <FailuresProvider>
            <WalletLogProvider>
              <ActivityProvider>
                <App
                  info={info}
                  pageMagic={pageMagic}
                  emailLogin={emailLogin}
                  passports={passports}
                  gameProvider={gameProvider}
                />
                <Toasts />
              </ActivityProvider>
            </WalletLogProvider>
          </FailuresProvider>
        </QueryClientProvider>
      </WagmiProvider>
    </StrictMode>,
  )
}
