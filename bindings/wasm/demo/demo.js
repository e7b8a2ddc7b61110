// The demo page: loads the package, decodes the bundled rates once, and
// ranks them again on every keystroke.
import init, { Rates, SwaprouteError } from "../pkg-browser/index.js";

const $ = (id) => document.getElementById(id);

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text ?? "";
  if (className) td.className = className;
  return td;
}

function show(rates) {
  const mode = $("mode").value;
  $("to-label").hidden = mode !== "ExactOut";
  const request = { mode, fromAmount: $("amount").value.trim(), now: Date.now() };
  if (mode === "ExactOut") request.toAmount = $("to-amount").value.trim();
  const body = $("ranking").tBodies[0];
  body.replaceChildren();
  $("error").textContent = "";
  try {
    const selection = rates.select(request);
    for (const route of selection.routes) {
      const row = body.insertRow();
      row.className = "route";
      row.dataset.rateId = route.rateId;
      cell(row, String(route.rank));
      cell(row, route.rateId, "id");
      cell(row, route.netOutput, "num net");
      cell(row, route.requiredInput, "num");
      cell(row, "");
    }
    for (const rejection of selection.rejected) {
      const row = body.insertRow();
      row.className = "rejected";
      row.dataset.rateId = rejection.rateId;
      cell(row, "–");
      cell(row, rejection.rateId, "id");
      cell(row, "");
      cell(row, "");
      cell(row, `${rejection.reason}${rejection.limit ? ` (${rejection.limit})` : ""}`, "reason");
    }
    if (selection.noRoute) $("error").textContent = `${selection.noRoute.code}: ${selection.noRoute.details}`;
    $("ranking").hidden = false;
  } catch (error) {
    if (!(error instanceof SwaprouteError)) throw error;
    $("ranking").hidden = true;
    $("error").textContent = `${error.code}: ${error.details}`;
  }
}

async function main() {
  await init();
  const response = await fetch(new URL("rates.json", import.meta.url));
  const rates = Rates.from(await response.text());
  $("status").textContent = `${rates.length} rates of ${rates.pairId}`;
  $("status").dataset.state = "ready";
  $("form").addEventListener("input", () => show(rates));
  show(rates);
}

main().catch((error) => {
  $("status").dataset.state = "failed";
  $("status").textContent = `Failed: ${error.message}`;
});
