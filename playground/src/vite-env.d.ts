/** The environment variables the playground reads (see vite/client). */
interface ImportMetaEnv {
  /** The emulator's JSON line, set by `npm start` (scripts/start.ts). */
  readonly VITE_EMULATOR_INFO?: string
}
