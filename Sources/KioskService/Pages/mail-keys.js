// The booth's on-screen keyboard for a guest's email address (a kiosk-mode browser shows no
// keyboard of its own): its keys, and what each does to the address typed so far. No DOM here, so
// node's test runner checks it (Tests/pages/mail-keys.test.mjs); guest.js draws it.

/** The longest address (RFC 5321: a path of 256 octets with its angle brackets). */
export const MAX_ADDRESS = 254;

/**
 * The keys, row by row: characters as they type (lower case; shift types the capital), and the
 * named keys "shift" and "backspace". The last row's domains come from the kiosk (`domains`, for
 * the page's language).
 */
export function keyRows(domains) {
  return [
    ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"],
    ["q", "w", "e", "r", "t", "y", "u", "i", "o", "p"],
    ["a", "s", "d", "f", "g", "h", "j", "k", "l"],
    ["shift", "z", "x", "c", "v", "b", "n", "m", "backspace"],
    ["@", ".", "-", "_", "+", ".com"],
    domains.slice(0, 4).map((d) => "@" + d),
  ];
}

/** What a key shows: its character (a capital while shift is on), or its symbol. */
export function keyLabel(key, shift) {
  if (key === "shift") return "⇧";
  if (key === "backspace") return "⌫";
  return shift && key.length === 1 ? key.toUpperCase() : key;
}

/**
 * The address after pressing `key` on `text` with `shift` on or off: `{ text, shift }`. Shift
 * holds for one letter. "@domain" keys put the domain after the "@" (replacing what was typed
 * there), or "@domain" when there is no "@" yet. Nothing goes beyond MAX_ADDRESS characters.
 */
export function press(text, key, shift) {
  if (key === "shift") return { text, shift: !shift };
  if (key === "backspace") return { text: text.slice(0, -1), shift: false };
  let next;
  if (key.startsWith("@") && key.length > 1) {
    const at = text.indexOf("@");
    next = at < 0 ? text + key : text.slice(0, at) + key;
  } else {
    next = text + (shift && key.length === 1 ? key.toUpperCase() : key);
  }
  return { text: next.length > MAX_ADDRESS ? text : next, shift: false };
}

/**
 * A character typed on a real keyboard (a booth may have one): the key it stands for, or null for
 * anything an address cannot hold (spaces, control keys, characters beyond ASCII).
 */
export function typedKey(character) {
  return character.length === 1 && /^[A-Za-z0-9@.!#$%&'*+/=?^_`{|}~-]$/.test(character) ? character : null;
}

/**
 * Whether `text` looks like an address enough to send it to the kiosk, which checks it in full:
 * one "@", something before it, and after it a name with a dot inside.
 */
export function looksLikeAddress(text) {
  const parts = text.split("@");
  if (parts.length !== 2 || !parts[0]) return false;
  const domain = parts[1];
  return domain.includes(".") && !domain.startsWith(".") && !domain.endsWith(".");
}
