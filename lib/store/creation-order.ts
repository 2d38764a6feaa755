/**
 * The creation-time order of named items (departments and groups) in the
 * byTime index: `gsi4sk` = `<created_at>#<id>`, so ties go by id.
 */
import { KEY_SEPARATOR } from '../text';

export const creationSortKey = (createdAt: string, id: string) => `${createdAt}${KEY_SEPARATOR}${id}`;
