/**
 * SCIM tokens: the secrets identity providers hold. The list (never a secret) with each token's last use; a new
 * token's secret shown once, in this screen's memory only (gone once the screen is left); revoking one.
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { asyncHandler } from '../components/async-handler';
import { Busy, ConfirmButton, Done, localInputToIso, ScreenTitle, Time } from '../components/parts';
import { SecretOnce } from '../components/secret';
import { asProblem, unreachable, useRequest } from '../components/use-request';
import { ProblemMessage, type Problem } from '../problems';
import { useCanWrite } from '../session';

interface NewToken {
  id: string;
  description: string;
  token: string;
}

function CreateToken({ onCreated }: { onCreated: (token: NewToken) => void }) {
  const [description, setDescription] = useState('');
  const [expires, setExpires] = useState('');
  const [problem, setProblem] = useState<Problem>();
  return (
    <section aria-labelledby="new-token">
      <h2 id="new-token">New token</h2>
      <p class="hint">One token per identity-provider connection, expiring no later than your rotation period.</p>
      <form
        onSubmit={asyncHandler(
          async (event) => {
            event.preventDefault();
            setProblem(undefined);
            const expiresAt = localInputToIso(expires);
            const { data, error, response } = await api.POST('/v2/scim/tokens', {
              body: { description: description.trim(), ...(expiresAt && { expires_at: expiresAt }) },
            });
            if (error || !data) return setProblem(asProblem(error, response));
            setDescription('');
            setExpires('');
            onCreated(data);
          },
          (error) => setProblem(unreachable(error)),
        )}
      >
        <label for="token-description">Description (e.g. the connection: “Okta production”)</label>
        <input
          id="token-description"
          required
          maxLength={200}
          value={description}
          onInput={(event) => setDescription(event.currentTarget.value)}
        />
        <label for="token-expires">Expires (optional)</label>
        <input id="token-expires" type="datetime-local" value={expires} onInput={(event) => setExpires(event.currentTarget.value)} />
        <div class="actions">
          <button type="submit" class="primary">
            Create token
          </button>
        </div>
      </form>
      <ProblemMessage problem={problem} />
    </section>
  );
}

export function ScimTokens() {
  const canWrite = useCanWrite();
  const tokens = useRequest(() => api.GET('/v2/scim/tokens'), []);
  const [created, setCreated] = useState<NewToken>();
  const [revoked, setRevoked] = useState<string>();
  const [problem, setProblem] = useState<Problem>();

  const revoke = async (id: string, description: string) => {
    setProblem(undefined);
    setRevoked(undefined);
    const { error, response } = await api.DELETE('/v2/scim/tokens/{token_id}', { params: { path: { token_id: id } } });
    if (error || !response.ok) setProblem(asProblem(error, response));
    else setRevoked(`Revoked the token “${description}”: identity providers using it are refused from now on.`);
    tokens.reload();
  };

  return (
    <>
      <ScreenTitle>SCIM tokens</ScreenTitle>
      <p class="hint">
        Identity providers (Okta, Entra ID…) provision users and groups through SCIM at <code>/scim/v2</code> with one of these tokens.
      </p>
      <Busy when={tokens.loading} />
      <ProblemMessage problem={tokens.problem} />
      <ProblemMessage problem={problem} />
      <Done>{revoked}</Done>
      {tokens.data && (
        <div class="table-scroll">
          <table>
            <caption>Tokens (their secrets are never shown again)</caption>
            <thead>
              <tr>
                <th scope="col">Description</th>
                <th scope="col">Id</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                {canWrite && <th scope="col">Change</th>}
              </tr>
            </thead>
            <tbody>
              {tokens.data.tokens.map((token) => (
                <tr key={token.id}>
                  <th scope="row">{token.description}</th>
                  <td>
                    <code>{token.id}</code>
                  </td>
                  <td>
                    <Time iso={token.created_at} />
                  </td>
                  <td>{token.expires_at ? <Time iso={token.expires_at} /> : 'never'}</td>
                  <td>
                    <Time iso={token.last_used_at} />
                  </td>
                  {canWrite && (
                    <td>
                      <ConfirmButton
                        label={`Revoke ${token.id}`}
                        question={`Revoke the token “${token.description}”? Identity providers using it will be refused.`}
                        confirm="Revoke"
                        danger
                        onConfirm={() => void revoke(token.id, token.description)}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {tokens.data?.tokens.length === 0 && <p>No token yet.</p>}
      {canWrite && (
        <CreateToken
          onCreated={(token) => {
            setCreated(token);
            setRevoked(undefined);
            tokens.reload();
          }}
        />
      )}
      {created && (
        <SecretOnce id="new-token-secret" label="Secret" secret={created.token}>
          Created the token “{created.description}” (<code>{created.id}</code>): give its secret to the identity provider.
        </SecretOnce>
      )}
    </>
  );
}
