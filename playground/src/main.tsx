import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { MissingInfo } from './components/MissingInfo.js'
import { readEmulatorInfo } from './emulator.js'
import { passportRoute } from './passport/config.js'
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
  const { info } = emulator
  const { passport } = info
  // The game wallet's callback pages (Vite serves index.html for every path)
  // load only what they need: they run in the login popup and the
  // silent-logout iframe too.
  const route = passportRoute(location.pathname, passport)
  const page = route
    ? import('./passport/CallbackPage.js').then((module) =>
        module.renderCallback(root, passport, route),
      )
    : import('./renderApp.js').then((module) => module.renderApp(root, info))
  page.catch((error: unknown) => {
    root.textContent = `The page failed to load: ${String(error)}`
  })
}
