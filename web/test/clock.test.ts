// SPDX-License-Identifier: GPL-3.0-or-later
// Clock text (tenths under ten seconds), custom time controls, and the human-like think time of a
// limited-strength Axon.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatClock, msUntilClockChange, parseTimeControl, timeControlById } from '../src/clock';
import { humanThinkTimeMs, kForcedMoveMs, kMaxClockShareHard, kMaxThinkMs, kMinThinkMs, type ThinkInput } from '../src/think-time';

test('clock text: m:ss, h:mm:ss, tenths under ten seconds, rounded up', () => {
  assert.equal(formatClock(300_000), '5:00');
  assert.equal(formatClock(59_001), '1:00');
  assert.equal(formatClock(3_600_000), '1:00:00');
  assert.equal(formatClock(10_000), '0:10');
  assert.equal(formatClock(9_950), '0:10', 'rounds up to ten seconds, not 0:09.10');
  assert.equal(formatClock(9_900), '0:09.9');
  assert.equal(formatClock(9_301), '0:09.4');
  assert.equal(formatClock(5_000), '0:05.0');
  assert.equal(formatClock(1), '0:00.1');
  assert.equal(formatClock(0), '0:00.0');
  assert.equal(formatClock(-50), '0:00.0');
  // The next change: the next second down above ten seconds, the next tenth under it.
  assert.equal(msUntilClockChange(12_345), 345);
  assert.equal(msUntilClockChange(11_000), 1000);
  assert.equal(msUntilClockChange(9_350), 50);
  assert.equal(msUntilClockChange(9_300), 100);
  assert.equal(msUntilClockChange(0), 0);
  for (let ms = 12_000; ms > 0; ms -= 7) {
    const next = msUntilClockChange(ms);
    assert.equal(formatClock(ms - next + 1), formatClock(ms), `${ms}: same text just before the change`);
    assert.notEqual(formatClock(ms - next), formatClock(ms), `${ms}: changes ${next} ms later`);
  }
});

test('custom time controls: minutes and increment checked, an id that names them', () => {
  const ok = (minutes: string, increment: string) => {
    const parsed = parseTimeControl(minutes, increment);
    assert.ok('tc' in parsed, `${minutes}+${increment}: ${JSON.stringify(parsed)}`);
    return parsed.tc;
  };
  assert.deepEqual(ok('7', '3'), { id: '7+3', initialMs: 420_000, incrementMs: 3000 });
  assert.deepEqual(ok('0.5', '0'), { id: '0.5+0', initialMs: 30_000, incrementMs: 0 });
  assert.deepEqual(ok(' 2,5 ', ''), { id: '2.5+0', initialMs: 150_000, incrementMs: 0 });
  assert.deepEqual(ok('0.25', '180'), { id: '0.25+180', initialMs: 15_000, incrementMs: 180_000 });
  assert.deepEqual(ok('180', '0'), { id: '180+0', initialMs: 10_800_000, incrementMs: 0 });
  for (const [minutes, increment, why] of [
    ['', '2', /number/],
    ['abc', '2', /number/],
    ['-1', '0', /number/],
    ['0', '5', /At least 15 seconds/],
    ['0.2', '0', /At least 15 seconds/],
    ['181', '0', /At most 180 minutes/],
    ['0.3333', '0', /whole seconds/],
    ['5', '1.5', /whole seconds/],
    ['5', '-2', /whole seconds/],
    ['5', '181', /at most 180 seconds/],
    ['1e3', '0', /number/],
  ] as const) {
    const parsed = parseTimeControl(minutes, increment);
    assert.ok('error' in parsed, `${minutes}+${increment} was taken`);
    assert.match(parsed.error, why, `${minutes}+${increment}`);
  }
  // Ids read back: presets, custom ones (after a reload), anything else the default.
  assert.deepEqual(timeControlById('3+2'), { id: '3+2', initialMs: 180_000, incrementMs: 2000 });
  assert.deepEqual(timeControlById('0.5+1'), { id: '0.5+1', initialMs: 30_000, incrementMs: 1000 });
  assert.equal(timeControlById('unlimited').initialMs, 0);
  assert.equal(timeControlById('0+0').id, '5+0');
  assert.equal(timeControlById('nonsense').id, '5+0');
});

const think = (over: Partial<ThinkInput>): number =>
  humanThinkTimeMs({ remainingMs: 300_000, incrementMs: 0, legalMoves: 30, inCheck: false, ply: 30, random: 0.5, ...over });

test('think time: never instant, bounded by the clock, longer in complex positions, quick when forced', () => {
  // Bounds over many positions and clocks.
  for (const remainingMs of [null, 500, 2_000, 15_000, 60_000, 300_000, 5_400_000])
    for (const incrementMs of [0, 2_000, 30_000])
      for (const legalMoves of [1, 2, 10, 30, 60])
        for (const ply of [0, 1, 10, 40, 120])
          for (const random of [0, 0.5, 0.999]) {
            const ms = humanThinkTimeMs({ remainingMs, incrementMs, legalMoves, inCheck: false, ply, random });
            const what = JSON.stringify({ remainingMs, incrementMs, legalMoves, ply, random, ms });
            assert.ok(Number.isInteger(ms) && ms <= kMaxThinkMs, what);
            if (remainingMs !== null) assert.ok(ms <= remainingMs * kMaxClockShareHard, `over the clock: ${what}`);
            // Never instant: the minimum, unless the clock itself is shorter than that allows.
            const clockCap = remainingMs === null ? Infinity : remainingMs * 0.1 + incrementMs * 0.75;
            assert.ok(ms >= Math.min(kMinThinkMs, clockCap, (remainingMs ?? Infinity) * kMaxClockShareHard) - 1, `too quick: ${what}`);
          }
  // A forced move is quick; a position with many moves takes longer than one with few.
  assert.ok(think({ legalMoves: 1 }) <= kForcedMoveMs * 1.4 + 1);
  assert.ok(think({ legalMoves: 1 }) < think({ legalMoves: 8 }));
  assert.ok(think({ legalMoves: 8 }) < think({ legalMoves: 45 }));
  // The opening goes faster than the middlegame, time trouble faster than a full clock.
  assert.ok(think({ ply: 2 }) < think({ ply: 30 }));
  assert.ok(think({ remainingMs: 20_000 }) < think({ remainingMs: 300_000 }));
  // An increment buys time; the move-to-move variation changes it.
  assert.ok(think({ incrementMs: 5_000 }) > think({ incrementMs: 0 }));
  assert.ok(think({ random: 0 }) < think({ random: 0.99 }));
  // A blitz middlegame move at 5+0 takes seconds, not milliseconds.
  const blitz = think({});
  assert.ok(blitz >= 3_000 && blitz <= 20_000, `5+0 middlegame: ${blitz} ms`);
  // No clock: paced as a couple of minutes a side.
  assert.ok(think({ remainingMs: null }) >= kMinThinkMs && think({ remainingMs: null }) <= 12_000);
});
