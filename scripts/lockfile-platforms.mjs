#!/usr/bin/env node
// The npm registry reachable from these machines is a partial mirror: some
// platform-specific optional packages (Biome's and Foundry's binaries for
// other systems) answer 404. npm then leaves them out of package-lock.json,
// and `npm ci` rejects that lock ("Missing: @biomejs/cli-win32-x64@ from lock
// file"). This script writes the entries a full registry would have produced:
// the version and the os/cpu/libc fields, marked optional. On this platform
// npm skips them without fetching anything. Run it after changing
// dependencies: `node scripts/lockfile-platforms.mjs`.
import { readFileSync, writeFileSync } from 'node:fs'

const path = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(path, 'utf8'))
const packages = lock.packages

/** os/cpu/libc of a platform package, read from its name. */
function platformOf(name) {
  const match = /-(android|darwin|linux|win32)-(arm64|x64|amd64)(-musl)?$/.exec(
    name,
  )
  if (!match) return undefined
  const [, os, arch, musl] = match
  const cpu = arch === 'amd64' ? 'x64' : arch
  return { cpu: [cpu], os: [os], libc: musl ? ['musl'] : ['glibc'] }
}

const added = []
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(
    entry.optionalDependencies ?? {},
  )) {
    const parent = location === '' ? '' : `${location}/`
    const nested = `${parent}node_modules/${name}`
    const hoisted = `node_modules/${name}`
    if (packages[nested] || packages[hoisted]) continue
    const platform = platformOf(name)
    if (!platform) continue
    const [os] = platform.os
    // Keys in the order npm itself writes them, so that a later
    // `npm install` leaves the file byte for byte as it is.
    packages[hoisted] = {
      version,
      cpu: platform.cpu,
      ...(entry.dev ? { dev: true } : {}),
      ...(os === 'linux' ? { libc: platform.libc } : {}),
      optional: true,
      os: platform.os,
    }
    added.push(`${name}@${version}`)
  }
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) =>
    a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
  ),
)
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
process.stdout.write(
  added.length ? `added ${added.join(', ')}\n` : 'lock file complete\n',
)
