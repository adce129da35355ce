// Doc type detection of the pipeline (title band OCR): each rendered card type, and nothing on a blank image.
import t from 'tap';
import sharp from 'sharp';
import { renderCard } from '../helpers/id-cards.js';
import enhanceDocType from '../../src/tasks/enhance-doctype.js';

t.test('the title band tells the card type', async (t) => {
  for (const [doc, seed] of [['jumin', 3], ['driver', 4], ['alien', 5]] as const) {
    const card = await renderCard(doc, { seed, degrade: { blur: 0.8, noise: 6 } });
    const r = await enhanceDocType({ image: new Uint8Array(card.image) });
    t.equal(r.docType, doc, `${doc}: detected ${r.docType} (confidence ${r.confidence}, title "${r.title}")`);
    t.ok(r.confidence >= 0.5);
  }
  const blank = await sharp({ create: { width: 1280, height: 807, channels: 3, background: '#dddddd' } }).png().toBuffer();
  const none = await enhanceDocType({ image: new Uint8Array(blank) });
  t.equal(none.docType, null, 'a blank card has no type');
});
