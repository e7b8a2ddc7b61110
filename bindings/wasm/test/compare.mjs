// Comparisons the golden vectors ask for (vectors/README.md, "Conventions"):
// decimals by value, IP addresses as addresses.

/** A decimal's text in one canonical form: no sign on zero, no leading or trailing zeros. */
export function canonDecimal(text) {
  if (typeof text !== "string" || !/^-?\d+(\.\d+)?$/.test(text)) {
    throw new Error(`not a decimal text: ${JSON.stringify(text)}`);
  }
  let negative = text.startsWith("-");
  let [int, frac = ""] = text.replace(/^-/, "").split(".");
  int = int.replace(/^0+(?=\d)/, "");
  frac = frac.replace(/0+$/, "");
  if (int === "0" && frac === "") negative = false;
  return `${negative ? "-" : ""}${int}${frac ? `.${frac}` : ""}`;
}

/** Two decimal texts (or `null`s) equal by value. */
export function sameDecimal(a, b) {
  if (a === null || a === undefined || b === null || b === undefined) {
    return (a ?? null) === (b ?? null);
  }
  return typeof a === "string" && typeof b === "string" && canonDecimal(a) === canonDecimal(b);
}

/** An IP address in one canonical form (IPv6 compressed by the WHATWG URL parser). */
export function canonIp(text) {
  return text.includes(":") ? new URL(`http://[${text}]`).hostname.slice(1, -1) : text;
}
