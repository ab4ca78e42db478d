import { describe, expect, it } from 'vitest'
import { localWindows } from './local-windows.ts'

const rule = (limit: number, windowSeconds = 60) => ({ limit, windowSeconds, message: '' })

describe('counters kept in memory', () => {
  it('count hits per key in fixed windows, with what is left and when the window ends', () => {
    let now = 1_000_000
    const windows = localWindows(() => now)
    expect(windows.hit('a', rule(2))).toEqual({ count: 1, limit: 2, remaining: 1, resetSeconds: 60 })
    now += 20_500
    expect(windows.hit('a', rule(2))).toEqual({ count: 2, limit: 2, remaining: 0, resetSeconds: 40 })
    expect(windows.hit('a', rule(2))).toMatchObject({ count: 3, remaining: 0 })
    expect(windows.hit('b', rule(2))).toMatchObject({ count: 1, remaining: 1 })
    // Never less than a second to wait, as the shared table answers.
    now += 39_400
    expect(windows.hit('a', rule(2))).toMatchObject({ count: 4, resetSeconds: 1 })
    // The window has ended: a new one starts with this hit.
    now += 100
    expect(windows.hit('a', rule(2))).toEqual({ count: 1, limit: 2, remaining: 1, resetSeconds: 60 })
  })

  it('forget ended windows when swept, and keep at most 50,000, dropping the oldest first', () => {
    let now = 0
    const windows = localWindows(() => now)
    windows.hit('old', rule(5, 10))
    now += 5_000
    windows.hit('recent', rule(5, 10))
    now += 6_000
    windows.sweep()
    expect(windows.size).toBe(1)
    expect(windows.hit('recent', rule(5, 10)).count).toBe(2)

    for (let i = 0; i < 50_000; i++) windows.hit(`client-${i}`, rule(5))
    expect(windows.size).toBe(50_000)
    // Full of live windows: the oldest ('recent', then client-0) made room.
    expect(windows.hit('client-0', rule(5)).count).toBe(2)
    expect(windows.hit('recent', rule(5, 10)).count).toBe(1)
    expect(windows.size).toBe(50_000)
  })
})
