export const accessTypes = ['client', 'server', 'admin'] as const;
export type AccessType = (typeof accessTypes)[number];

export const isAccessType = (value: string): value is AccessType => (accessTypes as readonly string[]).includes(value);
