import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { SIGNATURE_TOLERANCE_SECONDS, signPaddleBody, verifyPaddleSignature } from './paddle-signature.ts'

const SECRET = 'pdl_ntfset_test_secret'
const body = JSON.stringify({ event_id: 'evt_1', event_type: 'transaction.completed' })
const now = new Date('2026-11-23T12:00:00Z')
const ts = Math.floor(now.getTime() / 1000)
const h1 = (secret: string, timestamp = ts, raw = body) => createHmac('sha256', secret).update(`${timestamp}:${raw}`).digest('hex')

describe('Paddle webhook signatures', () => {
  it('accepts the signature Paddle computes: HMAC-SHA256 of ts:body', () => {
    expect(verifyPaddleSignature(body, `ts=${ts};h1=${h1(SECRET)}`, SECRET, now)).toEqual({ valid: true })
    expect(verifyPaddleSignature(body, signPaddleBody(body, SECRET, now), SECRET, now)).toEqual({ valid: true })
  })

  it('accepts any one of several h1 values, as during a secret rotation', () => {
    const header = `ts=${ts};h1=${h1('old-secret')};h1=${h1(SECRET)}`
    expect(verifyPaddleSignature(body, header, SECRET, now).valid).toBe(true)
  })

  it('refuses a wrong secret, a changed body, a missing or malformed header', () => {
    expect(verifyPaddleSignature(body, `ts=${ts};h1=${h1('other')}`, SECRET, now)).toMatchObject({ valid: false })
    expect(verifyPaddleSignature(`${body} `, `ts=${ts};h1=${h1(SECRET)}`, SECRET, now)).toMatchObject({ valid: false })
    expect(verifyPaddleSignature(body, null, SECRET, now)).toMatchObject({ valid: false, reason: 'missing Paddle-Signature header' })
    expect(verifyPaddleSignature(body, 'garbage', SECRET, now)).toMatchObject({ valid: false })
    expect(verifyPaddleSignature(body, `ts=abc;h1=${h1(SECRET)}`, SECRET, now)).toMatchObject({ valid: false })
    expect(verifyPaddleSignature(body, `ts=${ts}`, SECRET, now)).toMatchObject({ valid: false, reason: 'no h1 signature' })
    expect(verifyPaddleSignature(body, `ts=${ts};h1=zz`, SECRET, now)).toMatchObject({ valid: false })
  })

  it('refuses timestamps outside the tolerance, in the past and in the future', () => {
    const stale = ts - SIGNATURE_TOLERANCE_SECONDS - 1
    const future = ts + SIGNATURE_TOLERANCE_SECONDS + 1
    expect(verifyPaddleSignature(body, `ts=${stale};h1=${h1(SECRET, stale)}`, SECRET, now)).toMatchObject({ valid: false })
    expect(verifyPaddleSignature(body, `ts=${future};h1=${h1(SECRET, future)}`, SECRET, now)).toMatchObject({ valid: false })
    const edge = ts - SIGNATURE_TOLERANCE_SECONDS + 1
    expect(verifyPaddleSignature(body, `ts=${edge};h1=${h1(SECRET, edge)}`, SECRET, now).valid).toBe(true)
  })
})
