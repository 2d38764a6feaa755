/** How a list is ordered: a field and a direction (ties always go by id, ascending). */
import type { Direction } from '../schemas/enums';

export type { Direction };

export interface SortOrder<F extends string> {
  field: F;
  direction: Direction;
}
