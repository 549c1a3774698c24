import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/**
 * The playground's Vite config. `npm start` (scripts/start.ts) serves it with
 * the emulator's JSON line in the `VITE_EMULATOR_INFO` environment variable.
 */
export default defineConfig({
  plugins: [react()],
})
