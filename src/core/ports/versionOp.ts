/** What a version row did to its memory or record: every change appends one (type-2 history). */
export type VersionOp = 'create' | 'edit' | 'delete' | 'restore';
