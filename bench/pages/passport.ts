/**
 * The game wallet's dApp page (and its login callback page), the same
 * source for both clients: the bundler resolves `bench:passport` to
 * `embedded-wallets/passport` (ours, the built package) or to the published
 * `@imtbl/passport` (bench/browser.ts).
 */
import { Passport } from 'bench:passport'
import { installGame, type PassportClass } from './gameHarness.js'

installGame(Passport as unknown as PassportClass)
