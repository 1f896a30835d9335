// The pictures a conversation's turn records keep (what the user pasted, dropped, or attached
// as a screenshot of a tab), within a size across all its turns: a long conversation with many
// pictures must not fill the browser's storage or make its export huge. The newest are kept;
// once one does not fit, it and every older one give way to a note the panel shows in its
// place (its name stays). The agent's own memory keeps its pictures within a size of its own
// (py/tabagent/images.py, KEPT_IMAGE_CHARS).

// Data URL characters. One picture may be up to 8.4 million of them (a 6 MB file:
// py/tabagent/app/attachments.py, MAX_IMAGE_CHARS), so the newest picture always fits.
export const KEPT_PICTURE_CHARS = 10_000_000;

const sizeOf = (image) => (typeof image?.url === "string" ? image.url.length : 0);
const withoutPicture = ({ url: _url, ...kept }) => ({ ...kept, not_kept: true });

// The turns as they should be stored: new objects where a picture was dropped, the same ones
// elsewhere (nothing passed in is changed).
export function keepPicturesWithin(turns, limit = KEPT_PICTURE_CHARS) {
  let used = 0;
  let full = false;
  const keep = (image) => {
    if (!sizeOf(image)) return image;
    full ||= used + sizeOf(image) > limit;
    if (full) return withoutPicture(image);
    used += sizeOf(image);
    return image;
  };
  const newestFirst = [...turns].reverse().map((turn) => {
    const images = turn?.attachments?.images;
    if (!Array.isArray(images) || !images.length) return turn;
    const kept = [...images].reverse().map(keep).reverse();
    return kept.every((image, i) => image === images[i]) ? turn : { ...turn, attachments: { ...turn.attachments, images: kept } };
  });
  return newestFirst.reverse();
}
