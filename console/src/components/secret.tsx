/**
 * A secret the API shows this once (a SCIM token, a webhook's signing secret): selectable, with a copy button, and
 * the warning that it will not be shown again. It lives in the screen's memory only: gone once the screen is left.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export function SecretOnce({ id, label, secret, children }: { id: string; label: string; secret: string; children: ComponentChildren }) {
  const [copied, setCopied] = useState<boolean>();
  return (
    <div class="secret" role="status">
      <p>
        {children} Copy it now: <strong>it will not be shown again</strong>.
      </p>
      <label for={id}>{label}</label>
      <input id={id} class="secret-value" readOnly value={secret} onFocus={(event) => event.currentTarget.select()} />
      <div class="actions">
        <button
          type="button"
          onClick={() => {
            navigator.clipboard.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          Copy the secret
        </button>
        <span aria-live="polite">
          {copied === true ? 'Copied.' : copied === false ? 'The browser did not allow copying: select the secret and copy it.' : ''}
        </span>
      </div>
    </div>
  );
}
