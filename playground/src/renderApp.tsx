import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'
import { App } from './App.js'
import { createWagmiConfig } from './config.js'
import type { Info } from './emulator.js'

/** Renders the playground app (wagmi, react-query and the panels) into `root`. */
export function renderApp(root: HTMLElement, info: Info): void {
  const config = createWagmiConfig(info)
  const queryClient = new QueryClient()
  createRoot(root).render(
    <StrictMode>
      <WagmiProvider config={config}>
        <QueryClientProvider client={queryClient}>
          <App info={info} />
        </QueryClientProvider>
      </WagmiProvider>
    </StrictMode>,
  )
}
