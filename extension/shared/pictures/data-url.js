// A Blob or File as a data: URL (a screenshot for the model, a picture the user attached).
export function asDataUrl(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

// The pictures an extension page draws from a URL: data: URLs of raster pictures, nothing else
// (no remote address, which would be fetched, and no SVG, which can hold more than a picture).
export const PICTURE_URL = /^data:image\/(png|jpeg|webp|gif);base64,/;
