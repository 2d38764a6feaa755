/**
 * A group's rule as the groups list, a group's page and the new-group form show it: the rule's input with its syntax
 * in words, its status in words, and the preview the API answers for a dry run (`rule_preview`), shown before saving.
 */
import type { Schemas } from '../api';

type RuleStatus = NonNullable<Schemas['Group']['rule_status']>;
type RulePreview = NonNullable<Schemas['Group']['rule_preview']>;

/** A rule group's status in a few words (the groups list) and in a sentence (its page). */
export const RULE_STATUS: Record<RuleStatus, { short: string; sentence: string }> = {
  current: { short: 'current', sentence: 'Current: the members are exactly the users the rule matches.' },
  applying: { short: 'applying', sentence: 'Applying: the rule’s joins and leaves are being written (seconds).' },
  over_limit: {
    short: 'over the limit',
    sentence: 'Over the limit: more users match than a group holds; the group keeps the first ones by id until the matches fit.',
  },
};

/** The rule's text field, its syntax said under it. */
export function RuleInput({
  id,
  value,
  onInput,
  required,
}: {
  id: string;
  value: string;
  onInput: (value: string) => void;
  required?: boolean;
}) {
  return (
    <>
      <label for={id}>Rule</label>
      <input
        id={id}
        aria-describedby={`${id}-hint`}
        required={required}
        spellcheck={false}
        autoComplete="off"
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
      <p id={`${id}-hint`} class="hint">
        <code>department_id:</code>, <code>account_role:</code> and <code>activated:</code> (true or false), separated by commas: the same
        attribute twice means either value, different attributes must all hold. For example{' '}
        <code>department_id:eng,department_id:ops,account_role:admin,activated:true</code>.
      </p>
    </>
  );
}

function Sample({ caption, users, total }: { caption: string; users: Schemas['User'][]; total: number }) {
  if (users.length === 0) return null;
  return (
    <div class="table-scroll">
      <table>
        <caption>
          {caption}
          {total > users.length ? ` (the first ${users.length} of ${total})` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Id</th>
            <th scope="col">Department</th>
            <th scope="col">Role</th>
            <th scope="col">Active</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <th scope="row">
                {user.first_name} {user.last_name}
              </th>
              <td>
                <code>{user.id}</code>
              </td>
              <td>{user.department_id ?? '—'}</td>
              <td>{user.account_role}</td>
              <td>{user.activated ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What a rule would do, as the API's dry run counted it; `saveLabel` names the button that would do it. */
export function RulePreviewView({ preview, saveLabel }: { preview: RulePreview; saveLabel: string }) {
  return (
    <section class="rule-preview" aria-label="Preview of the rule">
      <p class="done" role="status">
        Preview: the rule matches {preview.matching} users; {preview.joining} would join and {preview.leaving} would leave. Nothing changes
        until you choose {saveLabel}.
      </p>
      <dl class="fields">
        <dt>Matching</dt>
        <dd>{preview.matching}</dd>
        <dt>Joining</dt>
        <dd>{preview.joining}</dd>
        <dt>Leaving</dt>
        <dd>{preview.leaving}</dd>
      </dl>
      <Sample caption="Would join" users={preview.sample_joining} total={preview.joining} />
      <Sample caption="Would leave" users={preview.sample_leaving} total={preview.leaving} />
    </section>
  );
}
