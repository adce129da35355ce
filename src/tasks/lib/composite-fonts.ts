// The Korean font of the print sheet: Noto Sans KR (SIL OFL 1.1) shipped by @expo-google-fonts/noto-sans-kr,
// registered with @napi-rs/canvas once per worker thread under our own family name (never a system font, so
// Hangul never falls back to tofu boxes).
import { createRequire } from 'node:module';
import { GlobalFonts } from '@napi-rs/canvas';

export const PRINT_FONT = 'Sejong Print KR';
let registered = false;

export function fontFiles(): { regular: string; bold: string } {
  const require = createRequire(import.meta.url);
  return {
    regular: require.resolve('@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'),
  };
}

/** Register the regular and bold faces (idempotent); returns the family name to use in ctx.font. */
export function ensurePrintFont(): string {
  if (registered) return PRINT_FONT;
  const f = fontFiles();
  const a = GlobalFonts.registerFromPath(f.regular, PRINT_FONT);
  const b = GlobalFonts.registerFromPath(f.bold, PRINT_FONT);
  if (!a || !b) throw new Error(`could not register the print font from ${f.regular}`);
  registered = true;
  return PRINT_FONT;
}
