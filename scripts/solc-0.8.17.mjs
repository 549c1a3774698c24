#!/usr/bin/env node
// forge's solc for the contracts that pin solc 0.8.17 (see scripts/solc.mjs).
import { serve } from './solc.mjs'

await serve('solc-0.8.17')
