// Registers the bundled Korean font (Noto Sans KR, SIL OFL) with @napi-rs/canvas once per thread.
import { createRequire } from 'node:module';
import { GlobalFonts } from '@napi-rs/canvas';

export const FONT_FAMILY = 'Noto Sans KR';
let done = false;

export function ensureFonts(): string {
  if (done) return FONT_FAMILY;
  const require = createRequire(import.meta.url);
  for (const f of ['400Regular/NotoSansKR_400Regular.ttf', '700Bold/NotoSansKR_700Bold.ttf']) {
    GlobalFonts.registerFromPath(require.resolve(`@expo-google-fonts/noto-sans-kr/${f}`), FONT_FAMILY);
  }
  done = true;
  return FONT_FAMILY;
}
