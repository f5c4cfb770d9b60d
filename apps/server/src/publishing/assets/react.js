/* global document, window */
// The emoji under an issue, for a signed-in member (decision 0056): a tap turns a reaction on or
// off through the API, then the page shows the list again. Without this script the buttons stay hidden.
(() => {
  const form = document.querySelector('form.react');
  if (!form) return;
  const status = form.querySelector('.react-status');
  form.hidden = false;
  form.addEventListener('submit', (event) => event.preventDefault());
  for (const button of form.querySelectorAll('button[data-emoji]')) {
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const res = await fetch(form.dataset.path, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ emoji: button.dataset.emoji }),
        });
        if (res.ok) return window.location.reload();
        const body = await res.json().catch(() => ({}));
        if (status) status.textContent = body.message || 'That did not work. Please try again.';
      } catch {
        if (status) status.textContent = 'No connection. Please try again.';
      }
      button.disabled = false;
    });
  }
})();
