import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'
import { App } from './App.js'
import { MissingInfo } from './components/MissingInfo.js'
import { createWagmiConfig } from './config.js'
import { readEmulatorInfo } from './emulator.js'
import './styles.css'

const root = document.getElementById('root')
if (!root) throw new Error('The page has no #root element.')

const emulator = readEmulatorInfo(import.meta.env.VITE_EMULATOR_INFO)
if (!emulator.ok)
  createRoot(root).render(
    <StrictMode>
      <MissingInfo reason={emulator.reason} />
    </StrictMode>,
  )
else {
  const config = createWagmiConfig(emulator.info)
  const queryClient = new QueryClient()
  createRoot(root).render(
    <StrictMode>
      <WagmiProvider config={config}>
        <QueryClientProvider client={queryClient}>
          <App info={emulator.info} />
        </QueryClientProvider>
      </WagmiProvider>
    </StrictMode>,
  )
}
