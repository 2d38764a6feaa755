/**
 * Change events for other systems: the service's event bus, on which the
 * StreamRouter (lib/changes/stream.ts) puts one event per change as it
 * reaches the change feed, in the feed's order: source `dept-admin`, detail
 * type `Change recorded`, the detail the change in plain JSON exactly as
 * GET /v2/changes gives it (docs/operations.md has an example). A change is
 * one transaction, which writes many items but exactly one audit entry
 * (lib/audit/context.ts), so one event per change. The router's records that
 * still fail after its retries wait in its own dead-letter queue.
 */
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import { CHANGE_EVENT_DETAIL_TYPE, CHANGE_EVENT_SOURCE } from '../lib/config';

export { CHANGE_EVENT_DETAIL_TYPE, CHANGE_EVENT_SOURCE };

export class ChangeEvents extends Construct {
  readonly bus: EventBus;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bus = new EventBus(this, 'Bus', { description: 'One event per change made through the department admin API' });
  }
}
