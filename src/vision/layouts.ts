// ID-card layouts (pure data, no models: safe to import on the main thread and from tests).

export type DocType = 'jumin' | 'driver' | 'alien';
/** [x, y, w, h] as fractions of the card */
export type Region = [number, number, number, number];


/**
 * Where each printed field sits on the card (fractions). Fields not printed but derived from others
 * (birth_date from the resident number) have no region. Shared with the test renderer.
 */
export const LAYOUTS: Record<DocType, { title: string; regions: Record<string, Region>; derived: string[] }> = {
  jumin: {
    title: '주민등록증',
    regions: {
      name: [0.04, 0.22, 0.6, 0.12],
      jumin_full: [0.04, 0.34, 0.6, 0.12],
      address: [0.04, 0.47, 0.62, 0.24],
      issue_date: [0.2, 0.72, 0.5, 0.1],
      issuer: [0.12, 0.83, 0.7, 0.13],
    },
    derived: ['birth_date'],
  },
  driver: {
    title: '자동차운전면허증',
    regions: {
      license_type: [0.28, 0.16, 0.26, 0.1],
      license_number: [0.55, 0.16, 0.43, 0.1],
      name: [0.28, 0.27, 0.6, 0.1],
      jumin_full: [0.28, 0.37, 0.6, 0.1],
      address: [0.28, 0.47, 0.7, 0.22],
      issue_date: [0.34, 0.71, 0.5, 0.1],
      issuer: [0.3, 0.82, 0.66, 0.13],
    },
    derived: ['birth_date'],
  },
  alien: {
    title: '외국인등록증',
    regions: {
      registration_number: [0.04, 0.19, 0.6, 0.1],
      name: [0.04, 0.29, 0.64, 0.1],
      nationality: [0.04, 0.39, 0.42, 0.1],
      status: [0.47, 0.39, 0.22, 0.1],
      address: [0.04, 0.49, 0.64, 0.22],
      issue_date: [0.2, 0.72, 0.5, 0.1],
      issuer: [0.1, 0.83, 0.74, 0.13],
    },
    derived: ['jumin_full', 'birth_date'],
  },
};

export function fieldNames(doc: DocType): string[] {
  return [...Object.keys(LAYOUTS[doc].regions), ...LAYOUTS[doc].derived];
}

