// Parsers for the corpus formats: legalize-kr statute Markdown, regulate-kr admin-rule Markdown and annexes, law.go.kr XML.
// The parsers live in parse/ by format; this module re-exports what other modules import.
export { categoryOf, type Article, type Category, type DocRec, type Item, type Paragraph, type ParsedDoc, type TableRec, type TableRef } from './parse/types.js';
export { parseYamlSubset, splitFrontmatter } from './parse/frontmatter.js';
export { paragraphsOf, structure } from './parse/structure.js';
export { inferRevisionType, parseStatuteMd, parseSubject } from './parse/statute.js';
export { parseAdmrulMd, parseAnnexMd } from './parse/admrul.js';
export { parseLawXml, type XmlLaw } from './parse/xml.js';
export { parseArticleNo } from './normalize.js';
