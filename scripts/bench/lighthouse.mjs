// One Lighthouse run against a fresh headless Chromium, bounded in time.
// Lighthouse only talks to the page's own origin here (robots.txt, source maps); there is no field
// data (CrUX) in the Node API, and Chromium's own calls home are switched off by the flags below.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { desktopConfig } from 'lighthouse'
import { throttling } from 'lighthouse/core/config/constants.js'

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']

const active = new Set()

/** Kills the Chromium instances this module started and that are still open (for Ctrl-C). */
export function killChromes() {
  for (const chrome of active) {
    try {
      chrome.kill()
    } catch {
      // already gone
    }
  }
  active.clear()
}

const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
}

/** Score 0-100 per category, metric values in ms (CLS unitless), and the failing audits. */
export function summarize(lhr) {
  const scores = {}
  for (const id of CATEGORIES) {
    const score = lhr.categories[id]?.score
    scores[id] = score == null ? null : Math.round(score * 100)
  }
  const metrics = {}
  for (const [key, id] of Object.entries(METRICS)) {
    const value = lhr.audits[id]?.numericValue
    metrics[key] = value == null ? null : key === 'cls' ? Number(value.toFixed(3)) : Math.round(value)
  }
  // Audits that cost points in the non-performance categories: what to fix to reach 100.
  const failing = []
  for (const id of CATEGORIES.filter((category) => category !== 'performance')) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id]
      if (ref.weight > 0 && audit?.score !== null && audit?.score < 1) failing.push(`${id}:${ref.id}`)
    }
  }
  // Performance audits that did not pass (opportunities and diagnostics): where the points go.
  const performanceHints = (lhr.categories.performance?.auditRefs ?? [])
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
    .filter((audit) => !Object.values(METRICS).includes(audit.id))
    .map((audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`)
  // Anything the page asked for beyond loopback (the network is closed: it would only fail).
  const external = (lhr.audits['network-requests']?.details?.items ?? [])
    .map((item) => item.url)
    .filter((url) => /^https?:/.test(url) && !/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url))
  return {
    scores,
    metrics,
    failing,
    performanceHints,
    external,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    warnings: lhr.runWarnings ?? [],
    userAgent: lhr.environment?.hostUserAgent ?? null,
  }
}

/**
 * The CPU slowdown that takes this machine to the device class Lighthouse's default 4x aims at.
 * Lighthouse's docs (docs/throttling.md, "Calibrating the CPU slowdown"): the 4x default moves a
 * high-end desktop (benchmarkIndex 1500-2000) into the mid-tier mobile bracket, and a weaker host
 * should use a lower multiplier (low-end desktop or high-end mobile -> mid-tier mobile: 2x, range
 * 1-5). Scaled from the middle of the high-end desktop bracket, so such a host keeps 4x.
 */
export function calibratedCpuMultiplier(benchmarkIndex) {
  const multiplier = (4 * benchmarkIndex) / 1750
  return Math.round(Math.min(4, Math.max(1, multiplier)) * 10) / 10
}

/**
 * @param {string} url
 * @param {{formFactor: 'mobile'|'desktop', chromePath: string, timeoutMs: number, profileDir: string, cpuSlowdownMultiplier?: number}} options
 * @returns {Promise<import('lighthouse').Result>}
 */
export async function runLighthouse(url, { formFactor, chromePath, timeoutMs, profileDir, cpuSlowdownMultiplier }) {
  mkdirSync(profileDir, { recursive: true })
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: CHROME_FLAGS,
    userDataDir: path.resolve(profileDir),
    logLevel: 'silent',
    handleSIGINT: false, // bench-pages.mjs cleans up on Ctrl-C itself
    connectionPollInterval: 250,
    maxConnectionRetries: 80,
  })
  active.add(chrome)
  let timer
  try {
    const flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      disableFullPageScreenshot: true,
      maxWaitForLoad: Math.min(45_000, timeoutMs),
      ...(cpuSlowdownMultiplier ? { throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier } } : {}),
    }
    const config = formFactor === 'desktop' ? desktopConfig : undefined
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Lighthouse timed out after ${Math.round(timeoutMs / 1000)} s on ${url} (${formFactor})`)),
        timeoutMs,
      )
    })
    const running = lighthouse(url, flags, config)
    running.catch(() => {}) // after a timeout its late rejection must not crash the script
    const result = await Promise.race([running, timeout])
    if (!result?.lhr) throw new Error(`Lighthouse returned no result for ${url}`)
    if (result.lhr.runtimeError) {
      throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`)
    }
    return result.lhr
  } finally {
    clearTimeout(timer)
    // Killing Chromium also ends a Lighthouse run that is still waiting on it.
    active.delete(chrome)
    try {
      chrome.kill()
    } catch {
      // already gone
    }
  }
}
