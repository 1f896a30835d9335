// Takes away every way out of the sandbox that the platform offers, before model code runs.
// The manifest's CSP already forbids connecting anywhere and the page's unique origin has no
// extension APIs, storage or cookies; this is the second wall: the APIs themselves are gone,
// including those CSP does not govern (WebRTC's peer connections, for one), so that a gap in
// one layer is not a way out.

export const WAYS_OUT = Object.freeze([
  // the network
  "fetch", "XMLHttpRequest", "WebSocket", "WebSocketStream", "EventSource", "WebTransport",
  // peer-to-peer, outside CSP's reach
  "RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "RTCIceTransport", "RTCSctpTransport",
  // more JavaScript, other contexts and storage that could carry data to them
  "importScripts", "Worker", "SharedWorker", "BroadcastChannel", "indexedDB", "caches", "cookieStore",
  // windows, navigation, notices
  "open", "Notification", "PresentationRequest",
]);

const NAVIGATOR_WAYS_OUT = ["sendBeacon", "serviceWorker", "credentials", "usb", "hid", "serial", "bluetooth"];

// Deletes each name wherever it lives on `global`'s prototype chain (browsers put some on the
// global object, some on its prototypes), then pins it to undefined so it cannot come back.
export function closeWaysOut(global, names = WAYS_OUT) {
  for (const name of names) {
    const own = Object.getOwnPropertyDescriptor(global, name);
    if (own && !own.configurable && own.value === undefined) continue; // closed already
    for (let object = global; object; object = Object.getPrototypeOf(object)) {
      if (Object.prototype.hasOwnProperty.call(object, name)) delete object[name];
    }
    if (name in global) throw new Error(`the sandbox cannot remove ${name}`);
    Object.defineProperty(global, name, { value: undefined, writable: false, configurable: false });
  }
  const navigator = global.navigator;
  for (const name of NAVIGATOR_WAYS_OUT) {
    // Some getters throw in a sandbox (serviceWorker): never read them, shadow them.
    if (navigator && name in navigator && !Object.prototype.hasOwnProperty.call(navigator, name)) {
      Object.defineProperty(navigator, name, { value: undefined, writable: false, configurable: false });
    }
  }
}
