/* global document, window */
// The "Print / Save as PDF" button: hidden in the page's HTML, shown here, so without this script
// there is no button that does nothing. The print edition is the page's own print stylesheet.
(() => {
  const button = document.querySelector('button.print-button');
  if (!button || typeof window.print !== 'function') return;
  button.hidden = false;
  button.addEventListener('click', () => window.print());
})();
