import { Passport } from 'embedded-wallets/passport'
import { loadEmulatorInfo } from './emulator.js'
import { passportConfig } from './wallets.js'

// The game wallet's redirectUri page: in the login popup it hands the
// sign-in back to the dApp's window and closes.
const status = document.getElementById('status')
loadEmulatorInfo()
  .then((info) => new Passport(passportConfig(info)).loginCallback())
  .catch((error: unknown) => {
    if (status) status.textContent = `Sign-in failed: ${String(error)}`
  })
