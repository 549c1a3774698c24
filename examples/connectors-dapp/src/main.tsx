import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'
import { App } from './App.js'
import { loadEmulatorInfo } from './emulator.js'
import { createWagmiConfig } from './wallets.js'

const root = createRoot(document.getElementById('root') as HTMLElement)
const queryClient = new QueryClient()

loadEmulatorInfo().then(
  (info) =>
    root.render(
      <StrictMode>
        <WagmiProvider config={createWagmiConfig(info)}>
          <QueryClientProvider client={queryClient}>
            <App />
          </QueryClientProvider>
        </WagmiProvider>
      </StrictMode>,
    ),
  (error: unknown) => root.render(<p role="alert">{String(error)}</p>),
)
