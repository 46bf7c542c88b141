/**
 * WAV (RIFF/WAVE) sample rate and duration: the `fmt ` chunk gives the rate and frame size, the
 * `data` chunk's size the number of frames. Chunks are walked by their sizes (padded to even).
 */
import { Bytes, durationMsOf, refuseMedia } from './bytes.ts';
import { isRiff } from './imageFacts.ts';

/** Sample rate (Hz) and duration (ms) of an audio file. */
export interface AudioTiming {
  sampleRate: number;
  durationMs: number;
}

// Formats whose data is whole frames of `blockAlign` bytes: PCM, IEEE float, A-law, mu-law, extensible.
const FRAMED = new Set([0x0001, 0x0003, 0x0006, 0x0007, 0xfffe]);

/**
 * The WAV's timing. Duration = whole frames of the data chunk / sample rate for framed formats,
 * data bytes / average byte rate for compressed ones. A data chunk that claims more bytes than the
 * file holds (a writer that never patched its header) counts the bytes present. `fmt ` must come
 * before `data`.
 */
export function wavTiming(bytes: Uint8Array): AudioTiming {
  const r = new Bytes(bytes, 'the WAV');
  if (!isRiff(bytes, 'WAVE')) refuseMedia('not a WAV (RIFF/WAVE)');
  let fmt: { format: number; sampleRate: number; byteRate: number; blockAlign: number } | undefined;
  for (let at = 12; ; ) {
    const id = r.ascii(at, 4);
    const size = r.u32le(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16) refuseMedia('the WAV fmt chunk is shorter than 16 bytes');
      const format = r.u16le(body);
      const channels = r.u16le(body + 2);
      const sampleRate = r.u32le(body + 4);
      const byteRate = r.u32le(body + 8);
      const blockAlign = r.u16le(body + 12);
      if (channels === 0 || sampleRate === 0 || byteRate === 0 || blockAlign === 0)
        refuseMedia('the WAV fmt chunk has a zero channel count, sample rate, byte rate or block size');
      fmt = { format, sampleRate, byteRate, blockAlign };
    } else if (id === 'data') {
      if (!fmt) refuseMedia('the WAV has its data chunk before its fmt chunk');
      const dataBytes = BigInt(Math.min(size, r.length - body));
      const durationMs = FRAMED.has(fmt.format)
        ? durationMsOf(dataBytes / BigInt(fmt.blockAlign), BigInt(fmt.sampleRate))
        : durationMsOf(dataBytes, BigInt(fmt.byteRate));
      return { sampleRate: fmt.sampleRate, durationMs };
    }
    at = body + size + (size & 1);
  }
}
