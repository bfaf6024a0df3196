// SPDX-License-Identifier: GPL-3.0-or-later
// Short WebAudio tones for moves, captures, checks and the end of a game: no sound files needed.

export type SoundKind = 'move' | 'capture' | 'check' | 'end' | 'low-time';

const kTones: Record<SoundKind, { frequency: number; durationMs: number; type: OscillatorType; gain: number }[]> = {
  move: [{ frequency: 520, durationMs: 45, type: 'triangle', gain: 0.18 }],
  capture: [
    { frequency: 360, durationMs: 40, type: 'square', gain: 0.08 },
    { frequency: 260, durationMs: 60, type: 'triangle', gain: 0.16 },
  ],
  check: [
    { frequency: 740, durationMs: 60, type: 'sine', gain: 0.16 },
    { frequency: 980, durationMs: 80, type: 'sine', gain: 0.14 },
  ],
  end: [
    { frequency: 660, durationMs: 120, type: 'sine', gain: 0.15 },
    { frequency: 495, durationMs: 120, type: 'sine', gain: 0.15 },
    { frequency: 392, durationMs: 220, type: 'sine', gain: 0.15 },
  ],
  'low-time': [{ frequency: 880, durationMs: 70, type: 'sine', gain: 0.1 }],
};

export class SoundPlayer {
  private m_context: AudioContext | null = null;
  enabled = true;

  play(kind: SoundKind): void {
    if (!this.enabled) return;
    try {
      this.m_context ??= new AudioContext();
      const context = this.m_context;
      if (context.state === 'suspended') void context.resume();
      let at = context.currentTime;
      for (const tone of kTones[kind]) {
        const oscillator = context.createOscillator();
        const gain = context.createGain();
        oscillator.type = tone.type;
        oscillator.frequency.value = tone.frequency;
        const seconds = tone.durationMs / 1000;
        gain.gain.setValueAtTime(tone.gain, at);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
        oscillator.connect(gain).connect(context.destination);
        oscillator.start(at);
        oscillator.stop(at + seconds);
        at += seconds * 0.8;
      }
    } catch {
      // No audio (autoplay policy, no device): silence is fine.
    }
  }
}
