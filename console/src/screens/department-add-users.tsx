/**
 * Adding users to a department with a preview first: E3 with `?dry_run=true` answers what the addition would give
 * (the users, or the unknown ids, or each quota it would exceed) and changes nothing; only then does Add send the
 * same request for real. Both are all or nothing.
 */
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api';
import { asyncHandler } from '../components/async-handler';
import { ChangeResult } from '../components/change-result';
import { useChange } from '../components/use-change';
import { UserTable } from '../components/user-list';

/** The ids typed or pasted: one per line, or separated by commas or spaces; repeats once. */
export const parseUserIds = (text: string) => [...new Set(text.split(/[\s,;]+/).filter(Boolean))];

export function AddUsers({ departmentId, onAdded }: { departmentId: string; onAdded: () => void }) {
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<{ ids: string[]; users: Schemas['User'][] }>();
  const previewing = useChange();
  const adding = useChange();
  const ids = parseUserIds(text);
  const request = (dryRun: boolean) => () =>
    api.POST('/v2/departments/{department_id}/users', {
      params: { path: { department_id: departmentId }, query: dryRun ? { dry_run: 'true' } : {} },
      body: { user_ids: ids },
    });
  const previewed = preview !== undefined && preview.ids.join() === ids.join();
  return (
    <section aria-labelledby="add-users">
      <h2 id="add-users">Add users</h2>
      <form
        onSubmit={asyncHandler(async (event) => {
          event.preventDefault();
          adding.clear();
          setPreview(undefined);
          await previewing.run(`Checking ${ids.length} users…`, request(true), (answer) => {
            setPreview({ ids, users: 'users' in answer! ? answer!.users : [] });
            return `Adding these ${ids.length} users would succeed. Nothing has changed yet.`;
          });
        })}
      >
        <label for="add-user-ids">User ids (one per line, or separated by commas or spaces; up to 1,000)</label>
        <textarea
          id="add-user-ids"
          rows={4}
          value={text}
          onInput={(event) => {
            setText(event.currentTarget.value);
            previewing.clear();
          }}
        />
        <div class="actions">
          <button type="submit" disabled={ids.length === 0 || !!previewing.busy || !!adding.busy}>
            Preview
          </button>
          {previewed && (
            <button
              type="button"
              class="primary"
              disabled={!!adding.busy}
              onClick={asyncHandler(async () => {
                const added = await adding.run(`Adding ${ids.length} users…`, request(false), (answer) =>
                  'users' in answer!
                    ? `Added ${answer!.users.length} users.`
                    : `Adding ${ids.length} users: the move completes in the background.`,
                );
                if (added) {
                  setText('');
                  setPreview(undefined);
                  previewing.clear();
                  onAdded();
                }
              })}
            >
              Add {ids.length} users
            </button>
          )}
        </div>
      </form>
      <ChangeResult change={previewing} />
      {previewed && <UserTable users={preview.users} caption="The users as they would be" />}
      <ChangeResult change={adding} />
    </section>
  );
}
