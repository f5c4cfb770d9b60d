/* global document */
// The newsletter page's only script. Every photo is a link to itself, so without this file a tap
// still opens the photo; with it, photos open large in a <dialog> (Escape, the close button or a
// tap outside closes it; arrow keys and buttons move between photos; focus returns to the photo).
(() => {
  const dialog = document.querySelector('dialog.lightbox');
  if (!dialog || typeof dialog.showModal !== 'function') return;
  const image = dialog.querySelector('figure img');
  const count = dialog.querySelector('figcaption');
  const prev = dialog.querySelector('.lightbox-prev');
  const next = dialog.querySelector('.lightbox-next');
  const photos = Array.from(document.querySelectorAll('.content a.photo'));
  let index = 0;
  let opener = null;

  const show = (i) => {
    index = (i + photos.length) % photos.length;
    const link = photos[index];
    const thumb = link.querySelector('img');
    // The same stored sizes as the page, chosen for the whole screen; width and height keep the box still while it loads.
    image.removeAttribute('srcset');
    image.src = link.href;
    if (thumb && thumb.srcset) {
      image.sizes = '96vw';
      image.srcset = thumb.srcset;
      image.width = Number(thumb.getAttribute('width')) || 0;
      image.height = Number(thumb.getAttribute('height')) || 0;
    }
    image.alt = thumb ? thumb.alt : '';
    count.textContent = photos.length > 1 ? `${index + 1} of ${photos.length}` : '';
  };

  prev.hidden = next.hidden = photos.length < 2;
  photos.forEach((link, i) => {
    link.addEventListener('click', (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      opener = link;
      show(i);
      dialog.showModal();
    });
  });
  dialog.querySelector('.lightbox-close').addEventListener('click', () => dialog.close());
  prev.addEventListener('click', () => show(index - 1));
  next.addEventListener('click', () => show(index + 1));
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowLeft') show(index - 1);
    if (event.key === 'ArrowRight') show(index + 1);
  });
  dialog.addEventListener('close', () => {
    image.removeAttribute('srcset');
    image.removeAttribute('src');
    if (opener) opener.focus();
  });
})();
