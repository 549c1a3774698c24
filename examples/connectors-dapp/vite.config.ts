import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/**
 * Two pages: the dApp, and the game wallet's `redirectUri` page, where its
 * login popup lands and `loginCallback()` hands the sign-in back.
 */
export default defineConfig({
  plugins: [react()],
  build: {
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        redirect: fileURLToPath(new URL('redirect.html', import.meta.url)),
      },
    },
  },
})
