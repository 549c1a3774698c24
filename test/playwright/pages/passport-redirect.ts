import { fail, show } from './app.js'
import { createPassport } from './passportSdk.js'

/**
 * The game's redirect page: `loginCallback()` finishes the sign-in (in the
 * login popup it hands the result to the game and the popup closes), then
 * shows the signed-in user.
 */
const passport = await createPassport()
try {
  await passport.loginCallback()
  if (!window.opener) show((await passport.getUserInfo()) ?? null)
} catch (error) {
  fail(error)
}
